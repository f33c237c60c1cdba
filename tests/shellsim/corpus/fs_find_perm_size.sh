mkdir p
printf 'x' > p/a; printf 'xxxxxxxxxx' > p/b; touch p/c
chmod 755 p/a; chmod 600 p/b
find p -type f -perm 755
find p -type f -perm -u=rw | sort
find p -type f -size +5c
find p -type f -size -1c
find p -type f -empty
