mkdir data
for i in 1 2 3; do echo "content $i" > data/file$i.txt; done
find data -name '*.txt' -exec cat {} \; | sort
find data -type f -exec basename {} \; | sort
