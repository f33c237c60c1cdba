set -u
x=1
echo "x=$x"
( echo "${undefined_var}" ) 2>/dev/null
echo "subshell status: $?"
