count_lines() { wc -l | tr -d ' '; }
printf 'a\nb\nc\n' | count_lines
