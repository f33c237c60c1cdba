add() { echo $(( $1 + $2 )); }
result=$(add 3 4)
echo "3+4=$result"
