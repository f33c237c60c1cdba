greet() {
  echo "Hello, $1!"
}
greet World
greet "Shell User"
