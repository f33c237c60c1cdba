mkdir dir1 dir2
touch f1 f2
mv f1 f2
ls
mv dir1 dir2
ls dir2
mv nope x 2>/dev/null || echo "mv missing: $?"
mv dir2 dir2/sub 2>/dev/null || echo "mv into self: $?"
touch f3
mv -n f3 f2
ls
