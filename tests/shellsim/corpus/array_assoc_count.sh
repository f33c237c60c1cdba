declare -A count
for w in a b a c b a; do count[$w]=$(( ${count[$w]:-0} + 1 )); done
for k in $(echo "${!count[@]}" | tr ' ' '\n' | sort); do echo "$k ${count[$k]}"; done
