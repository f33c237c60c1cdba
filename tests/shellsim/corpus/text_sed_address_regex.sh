cat > cfg.ini <<'EOF'
[main]
debug=false
[extra]
debug=false
EOF
sed '/\[extra\]/,/debug/s/false/true/' cfg.ini
