mkdir -p l/1/2/3/4
for d in l l/1 l/1/2 l/1/2/3 l/1/2/3/4; do touch "$d/f"; done
for depth in 0 1 2 3; do echo "depth $depth: $(find l -maxdepth $depth -type f | wc -l)"; done
