(sleep 0.1; exit 3) &
p1=$!
(exit 0) &
p2=$!
wait $p2; echo "p2=$?"
wait $p1; echo "p1=$?"
