printf 'alpha\nbeta\ngamma\n' > list.txt
while read -r line; do
  echo "${#line}: $line"
done < list.txt
