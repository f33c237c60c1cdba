declare -i n=5
n+=3
echo $n
n="n * 2"
echo $n
let m=n/4
echo $m
