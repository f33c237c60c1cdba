touch -d '2000-01-01' ancient.log
touch fresh.log
find . -name '*.log' -mtime +365
find . -name '*.log' -mtime -1
