sleep 0.05 0.05
echo "two args ok"
sleep 2>/dev/null
echo "no args: $?"
