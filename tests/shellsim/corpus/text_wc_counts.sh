printf 'one two\nthree\nfour five six\n' > t.txt
wc -l < t.txt
wc -w < t.txt
wc -c < t.txt
wc -l t.txt
