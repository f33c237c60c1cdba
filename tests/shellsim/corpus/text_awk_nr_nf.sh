printf 'a b c\nd e\nf\n' | awk '{print NR": "NF" fields"}'
printf 'x y z\n' | awk '{print $NF}'
