for n in $(seq 2 30); do
  p=1
  for ((d=2; d*d<=n; d++)); do ((n % d == 0)) && { p=0; break; }; done
  ((p)) && printf '%d ' $n
done
echo
