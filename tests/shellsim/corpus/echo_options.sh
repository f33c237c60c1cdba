echo -n "no newline"; echo
echo -e "a\tb"
echo "plain \t not escaped"
echo -- "-- dash"
