exec 3> fd3.txt
echo "via fd3" >&3
exec 3>&-
cat fd3.txt
