printf 'a\nb\n' > one.txt
printf 'c\n' > two.txt
wc -l one.txt two.txt
cat one.txt two.txt | wc -l
