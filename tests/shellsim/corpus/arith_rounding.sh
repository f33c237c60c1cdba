printf '%.0f %.0f %.0f\n' 2.5 3.5 2.6
printf '%.1f\n' 0.05
echo $(( (7 + 2 - 1) / 2 ))
