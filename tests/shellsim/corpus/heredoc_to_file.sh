cat > config.yaml <<EOF
app:
  name: demo
  port: 8080
EOF
grep port config.yaml
wc -l < config.yaml
