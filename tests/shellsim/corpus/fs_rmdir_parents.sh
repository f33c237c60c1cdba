mkdir -p x/y/z
rmdir -p x/y/z
[ -e x ] || echo "all removed"
mkdir -p p/q
touch p/file
rmdir -p p/q 2>/dev/null; echo "status=$?"
ls p
