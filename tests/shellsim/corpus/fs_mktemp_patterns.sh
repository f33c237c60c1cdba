f=$(mktemp tmp.XXXXXX)
[ -f "$f" ] && echo "temp file created"
d=$(mktemp -d build.XXXX)
[ -d "$d" ] && echo "temp dir created"
case $f in tmp.??????) echo "name matches template" ;; esac
stat -c %a "$f" "$d"
rm -r "$f" "$d"
mktemp -u q.XXX > /dev/null && echo "dry run ok"
mktemp bad 2>/dev/null || echo "too few X: $?"
