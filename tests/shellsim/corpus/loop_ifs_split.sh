data="a:b:c"
IFS=: read -r x y z <<< "$data"
echo "$x $y $z"
old=$IFS; IFS=,
for item in red,green,blue; do echo "$item"; done
IFS=$old
