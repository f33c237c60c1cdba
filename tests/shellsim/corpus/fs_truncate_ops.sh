printf '0123456789' > f
truncate -s 4 f; cat f; echo
truncate -s +2 f; wc -c < f
truncate -s -1 f; wc -c < f
truncate -s 1K g; wc -c < g
truncate -c -s 5 nofile; [ -e nofile ] || echo "not created"
