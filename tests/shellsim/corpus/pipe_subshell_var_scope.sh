count=0
printf 'a\nb\n' | while read -r l; do count=$((count+1)); done
echo "after pipe: $count"
while read -r l; do count=$((count+1)); done < <(printf 'a\nb\n')
echo "after procsub: $count"
