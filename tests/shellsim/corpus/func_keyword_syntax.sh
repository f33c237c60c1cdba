function say {
  echo "say: $*"
}
function twice() { "$@"; "$@"; }
twice say hi
