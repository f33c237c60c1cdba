cat > inv.csv <<'EOF'
sku,qty
A1,5
B2,0
C3,12
EOF
{
  read -r header
  while IFS=, read -r sku qty; do
    [ "$qty" -eq 0 ] && echo "$sku out of stock"
  done
} < inv.csv
echo "header was: $header"
