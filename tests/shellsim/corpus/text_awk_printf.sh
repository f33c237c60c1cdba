printf 'apple 1.5\nbanana 0.25\ncherry 10\n' | awk '{printf "%-10s %6.2f\n", $1, $2}'
