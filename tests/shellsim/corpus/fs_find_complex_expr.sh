mkdir -p src/a src/b
touch src/a/x.go src/a/x_test.go src/b/y.go src/b/README.md
find src -name '*.go' ! -name '*_test.go' | sort
find src \( -name '*.md' -o -name '*_test.go' \) -type f | sort
find src -type f -name '*.go' -path '*/b/*'
