echo "hello world" | sed 's/\b\(.\)/\u\1/g'
