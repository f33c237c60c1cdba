read -n 3 part <<< "abcdef"
echo "$part"
read -d , field <<< "x,y"
echo "$field"
