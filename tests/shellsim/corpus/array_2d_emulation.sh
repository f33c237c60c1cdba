declare -A grid
for r in 0 1; do for c in 0 1 2; do grid[$r,$c]=$((r * 3 + c)); done; done
echo "${grid[1,2]} ${grid[0,1]}"
