echo "Hello World" | tr 'a-z' 'A-Z'
echo "Hello World" | tr '[:upper:]' '[:lower:]'
