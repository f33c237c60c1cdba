echo new > a
echo old > b
cp -n a b
cat b
cp -f a b
cat b
cp a a 2>/dev/null || echo "same file refused"
