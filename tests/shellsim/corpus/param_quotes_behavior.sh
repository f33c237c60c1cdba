x="a   b"
echo $x
echo "$x"
echo '$x'
echo "\$x is $x"
