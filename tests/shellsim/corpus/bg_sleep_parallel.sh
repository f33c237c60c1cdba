(sleep 0.2; echo b > order.txt) &
(sleep 0.1; echo a >> order2.txt) &
wait
cat order.txt order2.txt
