lines=0 words=0
while read -r line; do
  lines=$((lines + 1))
  set -- $line
  words=$((words + $#))
done <<EOF
the cat
sat on the
mat
EOF
echo "lines=$lines words=$words"
