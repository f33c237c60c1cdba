a=(1 2 3 4 5)
rev=()
for ((i=${#a[@]}-1; i>=0; i--)); do rev+=("${a[$i]}"); done
echo "${rev[@]}"
