seq 1 20 > s.txt
head -3 s.txt
tail -2 s.txt
head -n -17 s.txt
tail -n +19 s.txt
