n=0
while [ $n -lt 4 ]; do
  echo "n is $n"
  n=$((n + 1))
done
