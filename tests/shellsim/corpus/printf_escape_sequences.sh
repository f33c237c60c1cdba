printf 'tab\there\n'
printf 'line1\nline2\n'
printf '%b\n' 'with\tescape'
printf 'percent: 100%%\n'
