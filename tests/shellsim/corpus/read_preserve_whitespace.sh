printf '  indented\ttab\n' > w.txt
while IFS= read -r line; do echo "[$line]"; done < w.txt
while read -r line; do echo "[$line]"; done < w.txt
