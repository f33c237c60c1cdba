start=$(date -u -d '2024-03-01' +%s)
end=$(date -u -d '2024-03-15' +%s)
echo "days: $(( (end - start) / 86400 ))"
for i in 0 1 2; do date -u -d "2024-12-30 +$i day" '+%a %F'; done
date -u -d 'invalid date string' 2>/dev/null || echo "invalid: $?"
