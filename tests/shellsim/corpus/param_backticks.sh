x=`echo legacy`
echo "$x"
echo "files: `printf 'a\nb\n' | wc -l`"
