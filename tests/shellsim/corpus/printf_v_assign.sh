printf -v padded '%04d' 7
echo "$padded"
printf -v joined '%s,' x y z
echo "${joined%,}"
