cat > log.txt <<'EOF'
INFO start
ERROR disk full
INFO retry
ERROR timeout
WARN slow
EOF
grep -c ERROR log.txt
grep -v INFO log.txt
grep -n WARN log.txt
