printf 'a\nb\nc\n' | xargs echo
printf 'a\nb\nc\n' | xargs -n1 echo item
printf '1 2 3 4\n' | xargs -n 2 echo
