total=0
for n in $(seq 1 100); do total=$((total + n)); done
echo "$total"
