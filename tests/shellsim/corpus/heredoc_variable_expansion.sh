name=World
cat <<EOF
Hello, $name!
Sum: $((2 + 3))
EOF
