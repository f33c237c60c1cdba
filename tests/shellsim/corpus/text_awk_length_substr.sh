echo "hello world" | awk '{print length($0); print substr($0, 1, 5); print toupper($2)}'
