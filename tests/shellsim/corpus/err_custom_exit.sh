check() {
  if [ "$1" -lt 0 ]; then echo "negative" >&2; exit 4; fi
  echo "ok $1"
}
check 5
check -1
echo "unreachable"
