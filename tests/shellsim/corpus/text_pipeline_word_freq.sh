cat > text.txt <<'EOF'
the quick brown fox jumps over the lazy dog
the dog barks and the fox runs
EOF
tr ' ' '\n' < text.txt | sort | uniq -c | sort -k1,1nr -k2 | head -3
