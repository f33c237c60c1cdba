mkdir -p tree/sub
touch tree/a tree/sub/b
chmod -R 700 tree
find tree -exec stat -c '%a %n' {} \; | sort -k2
chmod -R go+rX tree
find tree -exec stat -c '%a %n' {} \; | sort -k2
