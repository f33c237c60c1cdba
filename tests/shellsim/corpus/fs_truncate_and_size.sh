echo "some content" > f
: > f
wc -c < f
printf 'abc' > g
truncate -s 10 g
wc -c < g
