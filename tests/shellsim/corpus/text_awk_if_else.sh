for x in 5 15 25; do echo $x; done | awk '{ if ($1 < 10) print $1, "small"; else if ($1 < 20) print $1, "medium"; else print $1, "large" }'
