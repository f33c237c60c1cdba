seq 3
seq 2 2 10 | tr '\n' ' '; echo
seq -s, 1 5
seq -w 8 11
