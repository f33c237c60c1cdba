gcd() { local a=$1 b=$2 t; while ((b)); do t=$b; b=$((a % b)); a=$t; done; echo $a; }
g=$(gcd 48 36)
echo "gcd=$g lcm=$(( 48 * 36 / g ))"
