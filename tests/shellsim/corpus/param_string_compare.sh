a=apple b=banana
if [[ $a < $b ]]; then echo "$a < $b"; fi
if [ "$a" != "$b" ]; then echo "differ"; fi
[ -z "" ] && echo "empty string"
[ -n "x" ] && echo "non-empty"
