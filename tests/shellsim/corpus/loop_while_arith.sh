a=0 b=1
while ((b < 100)); do
  printf '%d ' $b
  t=$((a + b)); a=$b; b=$t
done
echo
