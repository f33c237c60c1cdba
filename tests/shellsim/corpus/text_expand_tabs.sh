printf 'a\tb\n' | expand -t 4 | cat -A
