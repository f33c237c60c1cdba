echo "outer $(echo "inner $(echo deep)")"
n=$(echo $(( $(echo 5) * 2 )))
echo "$n"
