printf 'a\nb\na\nc\nb\na\n' | sort | uniq -c
printf 'a\nb\na\nc\nb\na\n' | sort | uniq -c | sort -rn | head -1
