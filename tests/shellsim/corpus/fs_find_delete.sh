mkdir -p tmpdir/sub
touch tmpdir/keep.txt tmpdir/del.tmp tmpdir/sub/also.tmp
find tmpdir -name '*.tmp' -delete
find tmpdir | sort
