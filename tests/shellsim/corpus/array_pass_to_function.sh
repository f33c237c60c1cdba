print_all() { local i=0; for x in "$@"; do echo "$i:$x"; i=$((i+1)); done; }
arr=("first item" second)
print_all "${arr[@]}"
