printf 'a\\tb\n' > bs.txt
read -r raw < bs.txt; echo "$raw"
read cooked < bs.txt; echo "$cooked"
