f() { echo "f runs"; }
f
unset -f f
if ! type f >/dev/null 2>&1; then echo "f gone"; fi
