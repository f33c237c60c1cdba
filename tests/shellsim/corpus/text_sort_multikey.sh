cat > emp.txt <<'EOF'
eng 120 zed
ops 90 amy
eng 120 abe
ops 110 kim
eng 95 lou
EOF
sort -k1,1 -k2,2nr -k3,3 emp.txt
