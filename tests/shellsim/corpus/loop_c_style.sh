for ((i = 0; i < 5; i++)); do
  echo "i=$i sq=$((i * i))"
done
