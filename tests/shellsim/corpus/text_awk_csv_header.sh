cat > scores.csv <<'EOF'
name,score
ann,90
ben,72
cat,85
EOF
awk -F, 'NR > 1 && $2 >= 80 {print $1}' scores.csv
awk -F, 'NR > 1 {s += $2; n++} END {print s / n}' scores.csv
