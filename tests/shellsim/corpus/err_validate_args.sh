main() {
  if [ $# -lt 2 ]; then echo "usage: main A B"; return 64; fi
  echo "$1+$2"
}
main one
echo "rc=$?"
main one two
