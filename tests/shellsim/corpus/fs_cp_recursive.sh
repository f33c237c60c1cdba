mkdir -p orig/inner
echo 1 > orig/a; echo 2 > orig/inner/b
cp -r orig copy
find copy | sort
cat copy/inner/b
