while read -r k v; do
  echo "$k => $v"
done <<EOF
a 1
b 2
EOF
