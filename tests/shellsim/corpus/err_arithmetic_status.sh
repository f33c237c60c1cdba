(( 0 )); echo "zero: $?"
(( 5 )); echo "five: $?"
let "x = 2 + 2"; echo "x=$x"
