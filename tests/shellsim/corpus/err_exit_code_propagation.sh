( exit 3 )
echo "subshell: $?"
false
echo "false: $?"
true
echo "true: $?"
