work() { echo "$1 squared is $(( $1 * $1 ))" > "res_$1"; }
for n in 2 3 4; do work $n & done
wait
cat res_2 res_3 res_4
