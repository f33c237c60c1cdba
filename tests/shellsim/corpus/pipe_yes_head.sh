yes | head -n 3
yes abc | head -n 2 | tr -d '\n'; echo
