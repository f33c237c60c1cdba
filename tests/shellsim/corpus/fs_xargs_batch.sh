seq 1 7 | xargs -n 3 echo
seq 1 4 | xargs -L 2 echo line:
printf 'a b\nc d\n' | xargs -L 1 echo
echo "x y z" | xargs -n 1 | wc -l
