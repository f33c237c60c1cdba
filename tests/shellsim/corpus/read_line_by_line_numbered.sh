printf 'first\nsecond\nthird\n' > f.txt
n=0
while IFS= read -r line; do
  n=$((n + 1))
  printf '%02d %s\n' "$n" "$line"
done < f.txt
