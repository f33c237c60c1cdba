v=b
case $v in
  a) echo "is a" ;&
  b) echo "is b or after a" ;&
  c) echo "reached c" ;;
  d) echo "d" ;;
esac
case x in
  x) echo "x matched" ;;&
  *) echo "also default" ;;
esac
