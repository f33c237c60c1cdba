for i in $(seq 1 10); do
  if [ $((i % 2)) -eq 0 ]; then continue; fi
  if [ $i -gt 7 ]; then break; fi
  echo "odd $i"
done
