printf 'fruit apple\nveg carrot\nfruit pear\nveg leek\nfruit fig\n' > cat.txt
awk '{count[$1]++} END {for (k in count) print k, count[k]}' cat.txt | sort
