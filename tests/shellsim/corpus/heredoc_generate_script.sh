cat > gen.sh <<'EOF'
#!/bin/bash
echo "generated script running"
echo "args: $#"
EOF
bash gen.sh x y
