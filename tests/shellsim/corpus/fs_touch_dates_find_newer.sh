touch -d '2020-01-01 00:00:00' old.txt
touch -d '2021-06-15 12:00:00' mid.txt
touch -d '2022-12-31 23:59:59' new.txt
find . -type f -newer mid.txt
find . -type f ! -newer mid.txt | sort
stat -c '%y %n' old.txt new.txt
