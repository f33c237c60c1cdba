lines=$(printf 'x\ny\nz\n')
echo "$lines" | wc -l
echo $lines
