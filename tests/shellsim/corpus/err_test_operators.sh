touch f.txt; mkdir d
[ -e f.txt ] && echo "exists"
[ -f d ] || echo "d not regular"
[ -d d ] && echo "d is dir"
[ -s f.txt ] || echo "f.txt empty"
[ 3 -gt 2 -a 1 -lt 2 ] && echo "combined"
[[ 10 -ge 10 && ! -e nothing ]] && echo "double bracket"
