echo "first" > out.txt
cat >> out.txt <<EOF
second
third
EOF
cat out.txt
