printf '%s-' a b c; echo
printf '%s=%s\n' k1 v1 k2 v2
