mkdir s
head -c 2000 /dev/zero > s/big.bin
head -c 10 /dev/zero > s/small.bin
find s -type f -size +1k
find s -type f -size -1k
