echo target-content > target.txt
ln -s target.txt link.txt
cat link.txt
readlink link.txt
[ -L link.txt ] && echo "is symlink"
