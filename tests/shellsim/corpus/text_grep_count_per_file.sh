printf 'a\na\nb\n' > f1
printf 'a\nc\n' > f2
grep -c a f1 f2
