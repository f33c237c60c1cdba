seq 1 8 > n.txt
sed '2d' n.txt | tr '\n' ' '; echo
sed '3,5d' n.txt | tr '\n' ' '; echo
sed '/7/d' n.txt | tr '\n' ' '; echo
