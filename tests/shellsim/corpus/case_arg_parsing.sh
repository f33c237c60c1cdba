set -- -v --name=demo -o out.txt extra
verbose=0
while [ $# -gt 0 ]; do
  case $1 in
    -v) verbose=1 ;;
    --name=*) name=${1#--name=} ;;
    -o) shift; out=$1 ;;
    *) rest+=("$1") ;;
  esac
  shift
done
echo "verbose=$verbose name=$name out=$out rest=${rest[*]}"
