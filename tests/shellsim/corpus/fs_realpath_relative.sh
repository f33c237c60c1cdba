mkdir -p x/y
cd x/y
cd ../..
[ -d x/y ] && echo "back at top"
echo "$(basename "$(cd x && pwd)")"
