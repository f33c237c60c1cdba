timeout 0.5 sleep 0.1 && echo "finished in time"
timeout 0.1 sleep 2
echo "timeout status: $?"
