echo first > log.txt
echo second >> log.txt
printf 'third\n' >> log.txt
cat log.txt
wc -l < log.txt
