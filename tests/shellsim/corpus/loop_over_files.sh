touch a.txt b.txt c.log
for f in *.txt; do echo "text file: $f"; done
for f in *.md; do echo "got: $f"; done
