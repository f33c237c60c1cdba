basename -a /a/b.txt c/d.txt e
basename -s .txt x.txt y.txt
dirname /usr/bin/env relative/path file /
for p in /one/two/ two// /; do echo "$(basename "$p") | $(dirname "$p")"; done
