printf 'alice 30 nyc\nbob 25 sf\ncarol 35 la\n' > people.txt
awk '{print $1}' people.txt
awk '{print $3, $1}' people.txt
awk '$2 > 28 {print $1}' people.txt
