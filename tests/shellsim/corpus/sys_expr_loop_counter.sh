i=0
while [ $i -lt 5 ]; do i=$(expr $i + 1); done
echo "$i"
expr 10 / 0 2>/dev/null; echo "div0=$?"
expr a + 1 2>/dev/null; echo "nonint=$?"
