mkdir -p l1/l2/l3
touch l1/a l1/l2/b l1/l2/l3/c
find l1 -maxdepth 1 | sort
find l1 -mindepth 2 -type f | sort
