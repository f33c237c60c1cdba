uname
uname -s -m
uname -o
[ "$(uname -s)" = Linux ] && echo "on linux"
