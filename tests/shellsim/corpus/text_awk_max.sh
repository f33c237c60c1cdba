printf '3\n17\n5\n11\n' | awk 'NR==1 || $1 > max {max = $1} END {print "max", max}'
