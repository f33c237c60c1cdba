cat > app.env <<'EOF'
# comment
DB_HOST=localhost
DB_PORT=5432

DEBUG=true
EOF
while IFS='=' read -r key value; do
  [[ -z $key || $key == \#* ]] && continue
  echo "$key -> $value"
done < app.env
