mkdir -p pkg/sub
printf 'abc' > pkg/one
printf 'abcdef' > pkg/sub/two
find pkg -type f -printf '%f %s %d\n' | sort
find pkg -printf '%y %p\n' | sort -k2
find pkg -type f -printf '%P\n' | sort
