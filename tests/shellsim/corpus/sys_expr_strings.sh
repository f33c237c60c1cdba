expr length "hello world"
expr substr "abcdef" 2 3
expr index "hello" "lo"
expr "abc123" : '[a-z]*'
expr "key=value" : 'key=\(.*\)'
expr "x" = "x"
expr 5 \> 3
expr 2 + 3 \* 4
expr \( 2 + 3 \) \* 4
expr 7 % 3
expr 0 \| 5
expr "" \& 1; echo "status=$?"
