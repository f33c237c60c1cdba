echo data > old_name.txt
mv old_name.txt new_name.txt
ls
[ -e old_name.txt ] || echo "old gone"
