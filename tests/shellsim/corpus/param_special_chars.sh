s='He said "hi" & left'
echo "$s"
printf '%s\n' "$s"
echo "${#s}"
