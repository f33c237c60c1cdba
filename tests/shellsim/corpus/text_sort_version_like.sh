printf 'file10\nfile2\nfile1\n' | sort
printf 'file10\nfile2\nfile1\n' | sort -V
