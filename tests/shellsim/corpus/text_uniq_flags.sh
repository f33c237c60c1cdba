printf 'x\nx\ny\nz\nz\nz\n' > u.txt
uniq u.txt
echo --
uniq -d u.txt
echo --
uniq -u u.txt
