echo "a-b-c-d" | awk '{gsub(/-/, "+"); print}'
echo "foo bar foo" | awk '{n = gsub(/foo/, "baz"); print n, $0}'
