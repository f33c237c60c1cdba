echo a > f.txt
set -o noclobber
( echo b > f.txt ) 2>/dev/null || echo "clobber refused"
echo c >| f.txt
cat f.txt
