mkdir in
for n in 1 2 3; do printf "%s\n" "$n" > in/f$n; done
find in -type f -exec sh -c 'echo "$1: $(cat "$1")"' _ {} \; | sort
find in -type f -name 'f[12]' -exec cat {} + | sort -n
