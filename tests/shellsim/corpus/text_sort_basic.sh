printf 'pear\napple\nfig\nbanana\n' | sort
printf 'pear\napple\nfig\nbanana\n' | sort -r
