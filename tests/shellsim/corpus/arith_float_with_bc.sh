echo "scale=2; 10 / 3" | bc
echo "3.5 * 2" | bc
awk 'BEGIN {printf "%.3f\n", 22/7}'
