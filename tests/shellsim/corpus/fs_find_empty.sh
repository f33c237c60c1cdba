mkdir -p e1 e2/full
touch e2/full/x zero.txt
echo data > nonzero.txt
find . -empty | sort
