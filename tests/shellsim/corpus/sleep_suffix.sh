sleep 0.01s
sleep 0.001m
echo "suffixes ok"
