printf -v line '%*s' 10 ''
echo "${line// /-}"
printf '=%.0s' {1..5}; echo
