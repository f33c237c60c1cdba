cat > contacts.txt <<'EOF'
Alice <alice@example.com>
Bob bob at example dot com
Carol <carol.smith@test.org>, Dave <dave@test.org>
EOF
grep -oE '[a-z.]+@[a-z]+\.[a-z]+' contacts.txt
