printf 'a.b\naxb\na*b\n' > p.txt
grep -F 'a.b' p.txt
grep 'a.b' p.txt | wc -l
