echo "discard" > /dev/null
cat /dev/null | wc -l
[ -e /dev/null ] && echo "dev null exists"
