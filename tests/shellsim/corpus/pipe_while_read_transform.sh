printf 'alice,30\nbob,25\n' | while IFS=, read -r name age; do
  echo "$name is $age years old"
done
