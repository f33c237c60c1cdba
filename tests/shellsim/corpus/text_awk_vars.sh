echo "5 7" | awk -v mult=3 '{print $1*mult, $2*mult}'
