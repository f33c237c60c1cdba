mkdir docs
for n in a b c; do echo "hello from $n" > docs/$n.md; done
find docs -name '*.md' -print0 | sort -z | xargs -0 cat
find docs -name '*.md' | sort | xargs grep -l 'from b'
