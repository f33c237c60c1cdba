vals=(4 9 2 7)
sum=0; max=${vals[0]}
for v in "${vals[@]}"; do
  sum=$((sum + v))
  ((v > max)) && max=$v
done
echo "sum=$sum max=$max"
