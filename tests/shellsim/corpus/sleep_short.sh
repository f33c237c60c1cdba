sleep 0.1
echo "slept"
sleep 0 && echo "zero sleep ok"
