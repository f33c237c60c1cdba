seq 10 20 > n.txt
sed -n '3,5p' n.txt
sed -n '$p' n.txt
