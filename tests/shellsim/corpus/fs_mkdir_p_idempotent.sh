mkdir -p a/b/c
mkdir -p a/b/c && echo "second mkdir -p ok"
mkdir a 2>/dev/null || echo "plain mkdir fails"
