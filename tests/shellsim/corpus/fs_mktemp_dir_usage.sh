tmp=$(mktemp -d -p .)
echo "data" > "$tmp/file"
cat "$tmp/file"
rm -r "$tmp"
[ -d "$tmp" ] || echo "temp removed"
