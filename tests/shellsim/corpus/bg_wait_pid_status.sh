(exit 5) &
pid=$!
wait $pid
echo "job exit: $?"
