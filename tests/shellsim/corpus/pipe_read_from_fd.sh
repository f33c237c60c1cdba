printf 'l1\nl2\n' > in.txt
exec 4< in.txt
read -r a <&4
read -r b <&4
exec 4<&-
echo "$a $b"
