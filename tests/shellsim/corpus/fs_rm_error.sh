rm missing_file 2>/dev/null
echo "rm status: $?"
mkdir adir
rm adir 2>/dev/null || echo "cannot rm dir without -r"
rmdir adir && echo "rmdir ok"
