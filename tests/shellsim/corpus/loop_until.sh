x=1
until [ "$x" -gt 100 ]; do x=$((x * 3)); done
echo "$x"
