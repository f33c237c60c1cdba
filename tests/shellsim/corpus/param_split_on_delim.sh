csv="a,b,,d"
IFS=, read -ra parts <<< "$csv"
echo "${#parts[@]}"
for p in "${parts[@]}"; do echo "[$p]"; done
