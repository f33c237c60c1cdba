set -- -a -b val -c file
while getopts "ab:c" opt; do
  case $opt in
    a) echo "flag a" ;;
    b) echo "b=$OPTARG" ;;
    c) echo "flag c" ;;
    *) echo "bad" ;;
  esac
done
shift $((OPTIND - 1))
echo "remaining: $*"
