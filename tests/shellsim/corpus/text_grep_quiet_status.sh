printf 'alpha\nbeta\n' > f.txt
if grep -q beta f.txt; then echo "found beta"; fi
if ! grep -q gamma f.txt; then echo "no gamma"; fi
grep gamma f.txt
echo "status=$?"
