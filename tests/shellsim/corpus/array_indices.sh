a=(x y z)
for i in "${!a[@]}"; do echo "$i=${a[$i]}"; done
