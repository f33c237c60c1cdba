sleep abc 2>/dev/null
echo "status: $?"
