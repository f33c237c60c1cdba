while read -r name qty price; do
  printf '%-8s %3d x %6.2f = %7.2f\n' "$name" "$qty" "$price" "$(echo "$qty * $price" | bc)"
done <<EOF
apple 3 0.50
melon 1 2.75
EOF
