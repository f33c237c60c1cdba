cat > access.log <<'EOF'
10.0.0.1 GET /index.html 200
10.0.0.2 GET /about.html 404
10.0.0.1 POST /api 500
10.0.0.3 GET /index.html 200
10.0.0.2 GET /index.html 200
EOF
awk '{print $4}' access.log | sort | uniq -c
awk '$4 >= 400 {print $1}' access.log | sort -u
awk '{print $3}' access.log | sort | uniq -c | sort -rn | head -1 | awk '{print $2}'
