printf '10\n20\n30\n' > nums
total=0
while read -r n; do total=$((total + n)); done < nums
echo "$total"
paste -sd+ nums | bc
