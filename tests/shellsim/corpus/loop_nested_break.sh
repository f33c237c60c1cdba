for i in 1 2 3; do
  for j in 1 2 3; do
    if [ $j -eq 2 ]; then break 2; fi
    echo "$i-$j"
  done
done
echo done
