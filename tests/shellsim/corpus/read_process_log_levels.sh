cat > app.log <<'EOF'
2024 INFO boot
2024 ERROR db down
2024 INFO retry
2024 ERROR db down
2024 WARN slow
EOF
declare -A lv
while read -r _ level _; do lv[$level]=$(( ${lv[$level]:-0} + 1 )); done < app.log
for l in ERROR INFO WARN; do echo "$l=${lv[$l]}"; done
