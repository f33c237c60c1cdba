mkdir -p junk/deep
touch junk/deep/x junk/y
rm junk/y
ls junk
rm -r junk
[ -d junk ] || echo "junk removed"
rm -f not_there.txt && echo "rm -f ok"
