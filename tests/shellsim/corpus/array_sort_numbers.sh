nums=(42 7 19 3 25)
IFS=$'\n' sorted=($(sort -n <<<"${nums[*]}")); unset IFS
echo "${sorted[@]}"
