cat > page.html <<'EOF'
<html><title>My Page</title>
<body>text</body></html>
EOF
sed -n 's/.*<title>\(.*\)<\/title>.*/\1/p' page.html
