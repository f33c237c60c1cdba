(echo "job1" > j1.txt) &
(echo "job2" > j2.txt) &
wait
cat j1.txt j2.txt
