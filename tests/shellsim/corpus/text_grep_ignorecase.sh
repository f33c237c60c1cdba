printf 'Apple\nbanana\nAPPLE pie\ncherry\n' > fruits.txt
grep -i apple fruits.txt
echo "count: $(grep -ic apple fruits.txt)"
