seq 1 10 > nums.txt
grep -A1 5 nums.txt
echo --
grep -B2 3 nums.txt
