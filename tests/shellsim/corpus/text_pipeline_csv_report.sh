cat > sales.csv <<'EOF'
region,product,amount
north,widget,100
south,gadget,250
north,gadget,75
south,widget,50
east,widget,300
EOF
tail -n +2 sales.csv | awk -F, '{t[$1] += $3} END {for (r in t) print r, t[r]}' | sort -k2 -rn
