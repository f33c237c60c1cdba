for i in {1..5}; do printf '%d ' "$i"; done; echo
for i in {10..0..5}; do echo "$i"; done
for c in {a..e}; do printf '%s' "$c"; done; echo
