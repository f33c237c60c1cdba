process() {
  local name=$1; shift
  echo "name=$name rest=$*"
  while [ $# -gt 0 ]; do echo " opt: $1"; shift; done
}
process main -v --debug
