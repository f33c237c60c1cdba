printf 'abcdefghij' | head -c 4; echo
printf 'abcdefghij' | tail -c 3; echo
