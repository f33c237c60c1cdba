echo hi | grep -q hi
echo "grep status: $?"
echo hi | grep -q bye
echo "grep status: $?"
