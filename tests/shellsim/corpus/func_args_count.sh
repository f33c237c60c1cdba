show() { echo "argc=$#"; echo "all=$*"; echo "first=${1:-none}"; }
show a b c
show
