square() { echo $(($1 * $1)); }
sum_squares() { local s=0; for n; do s=$((s + $(square $n))); done; echo $s; }
sum_squares 1 2 3 4
