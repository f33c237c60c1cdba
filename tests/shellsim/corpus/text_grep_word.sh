printf 'cat\ncatalog\nthe cat sat\nconcat\n' > words.txt
grep -w cat words.txt
grep -x cat words.txt
