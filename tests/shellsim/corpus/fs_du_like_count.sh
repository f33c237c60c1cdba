mkdir -p proj/a proj/b
touch proj/a/{1,2,3} proj/b/{4,5}
for d in proj/*/; do echo "$(basename "$d"): $(ls "$d" | wc -l)"; done
