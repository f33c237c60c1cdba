printf '%+d %+d\n' 5 -5
printf '%08.3f\n' 3.5
printf '% d\n' 42
