touch new.txt
[ -f new.txt ] && echo "created"
[ -s new.txt ] || echo "empty"
echo content > new.txt
[ -s new.txt ] && echo "non-empty now"
