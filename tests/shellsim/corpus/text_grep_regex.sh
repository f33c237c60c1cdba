printf 'id=1 name=alice\nid=22 name=bob\nno id here\nid=333 name=carol\n' > data.txt
grep -E 'id=[0-9]{2,}' data.txt
grep -o 'name=[a-z]*' data.txt
