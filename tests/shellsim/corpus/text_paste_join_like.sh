printf 'a\nb\nc\n' > l1
printf '1\n2\n3\n' > l2
paste l1 l2
paste -d, l1 l2
paste -s l1
