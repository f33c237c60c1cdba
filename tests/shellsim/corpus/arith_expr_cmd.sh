expr 3 + 4
expr 10 \* 2
expr length "hello"
x=$(expr 20 / 3)
echo "$x"
