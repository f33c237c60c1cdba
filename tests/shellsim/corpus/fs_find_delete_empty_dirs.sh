mkdir -p a/b/c a/keep
touch a/keep/file
find a -type d -empty -delete
find a | sort
