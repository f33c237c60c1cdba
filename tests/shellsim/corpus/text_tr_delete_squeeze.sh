echo "a1b2c3" | tr -d '0-9'
echo "too    many   spaces" | tr -s ' '
echo "a,b,c" | tr ',' '\n'
