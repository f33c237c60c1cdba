printf 'a\nb' > nonl.txt
while IFS= read -r line || [ -n "$line" ]; do echo "got $line"; done < nonl.txt
