echo "some output"
grep -q never_there /dev/null
