seq 1 5 | awk 'BEGIN {print "start"} {s = s $1} END {print s; print "end"}'
