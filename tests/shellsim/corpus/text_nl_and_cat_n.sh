printf 'x\ny\nz\n' | cat -n
