printf 'red\ngreen\nblue\nyellow\n' > colors.txt
grep -e red -e blue colors.txt
grep -E 'gr|ye' colors.txt
