f="report.final.pdf"
echo "base=${f%.*} ext=${f##*.}"
p="dir/sub/name.txt"
echo "dir=${p%/*} file=${p##*/}"
