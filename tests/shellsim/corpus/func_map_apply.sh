double() { echo $(($1 * 2)); }
map() { local f=$1; shift; for x; do $f "$x"; done; }
map double 1 2 3 | tr '\n' ' '; echo
