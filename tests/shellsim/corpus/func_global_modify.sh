counter=0
inc() { counter=$((counter + 1)); }
inc; inc; inc
echo "$counter"
