while read -r n sq; do echo "$n^2=$sq"; done < <(for i in 1 2 3; do echo "$i $((i*i))"; done)
