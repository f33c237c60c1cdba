(seq 1 5 | awk '{s+=$1} END {print s}' > sum.txt) &
wait
cat sum.txt
