printf '%-10s|%8s\n' Name Score
printf '%-10s|%8d\n' alice 95 bob 7
printf '%s\n' ---------- 
