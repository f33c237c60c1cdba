count=0
while true; do
  count=$((count + 1))
  [ $count -ge 6 ] && break
done
echo "stopped at $count"
