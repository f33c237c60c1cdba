name=World
cat <<'EOF'
Hello, $name!
Literal $(date)
EOF
