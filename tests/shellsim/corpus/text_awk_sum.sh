printf 'item1 10\nitem2 25\nitem3 7\n' > items.txt
awk '{sum += $2} END {print "total:", sum}' items.txt
awk '{sum += $2} END {printf "avg: %.2f\n", sum/NR}' items.txt
