echo A > a; echo B > b
cat a b
cat a - b <<< "STDIN"
