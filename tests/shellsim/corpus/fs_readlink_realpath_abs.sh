readlink -m /a/b/../c/./d
realpath -m /x/../y//z
realpath -s -m /p/./q
mkdir -p top/inner
ln -s top/inner via
realpath --relative-to=. via
readlink -f via/../inner | sed "s|^$PWD/||"
