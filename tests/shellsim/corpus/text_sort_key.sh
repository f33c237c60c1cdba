printf 'bob 25\nalice 30\ncarol 22\n' | sort -k2 -n
printf 'x,3\ny,1\nz,2\n' | sort -t, -k2
