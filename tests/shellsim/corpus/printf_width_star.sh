printf '%*d|\n' 6 42
printf '%-*s|\n' 6 ab
