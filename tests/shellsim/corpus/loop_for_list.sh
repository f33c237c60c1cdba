for fruit in apple banana cherry; do
  echo "fruit: $fruit"
done
