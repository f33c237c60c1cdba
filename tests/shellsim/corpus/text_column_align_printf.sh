for n in alpha beta gamma; do printf '%-8s|%3d\n' "$n" "${#n}"; done
