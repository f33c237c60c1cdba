a=5; b=10
(( a < b )) && echo "a<b"
(( a == 5 )) && echo "a==5"
echo $(( a > b ? a : b ))
