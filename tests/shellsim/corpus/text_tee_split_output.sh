printf 'one\ntwo\n' | tee copy.txt | wc -l
cat copy.txt
