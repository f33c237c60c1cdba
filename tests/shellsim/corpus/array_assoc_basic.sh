declare -A ages
ages[alice]=30
ages[bob]=25
echo "${ages[alice]}"
echo "${#ages[@]}"
for k in $(printf '%s\n' "${!ages[@]}" | sort); do echo "$k -> ${ages[$k]}"; done
