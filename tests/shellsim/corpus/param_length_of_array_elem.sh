words=(a bb ccc dddd)
for w in "${words[@]}"; do printf '%s:%d ' "$w" "${#w}"; done; echo
