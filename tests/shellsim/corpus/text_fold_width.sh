echo "abcdefghijklmnopqrstuvwxyz" | fold -w 10
