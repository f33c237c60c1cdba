s="42"
echo $(( s + 8 ))
v="3 + 4"
echo $(( v ))
unset z
echo $(( z + 1 ))
