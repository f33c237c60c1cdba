check() { [ -f "$1" ] && return 0; return 3; }
touch exists.txt
check exists.txt; echo "rc=$?"
check missing.txt; echo "rc=$?"
