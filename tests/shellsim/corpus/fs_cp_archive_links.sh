mkdir src
echo data > src/file
ln -s file src/link
cp -a src dst
[ -L dst/link ] && echo "link preserved: $(readlink dst/link)"
cp -r src dst2
[ -L dst2/link ] && echo "cp -r keeps link too"
cp src/link plain
[ -L plain ] || echo "plain cp follows link: $(cat plain)"
