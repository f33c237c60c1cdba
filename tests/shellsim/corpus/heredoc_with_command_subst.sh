count=$(printf 'a\nb\n' | wc -l)
cat <<EOF
There are $count lines
EOF
