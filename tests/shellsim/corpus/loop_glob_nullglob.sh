shopt -s nullglob
files=(*.none)
echo "count=${#files[@]}"
