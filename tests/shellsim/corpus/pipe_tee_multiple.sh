echo "hello" | tee a.txt b.txt > /dev/null
cat a.txt b.txt
