total=4
for i in $(seq 1 $total); do
  pct=$(( i * 100 / total ))
  printf '[%-4s] %3d%%\n' "$(printf '#%.0s' $(seq 1 $i))" "$pct"
done
