name="svc"; replicas=3
cat > spec.json <<EOF
{
  "name": "$name",
  "replicas": $replicas
}
EOF
grep -c '"' spec.json
cat spec.json
