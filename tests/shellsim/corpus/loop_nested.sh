for i in 1 2 3; do
  for j in a b; do
    printf '%s%s ' "$i" "$j"
  done
done
echo
