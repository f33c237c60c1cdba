printf '%c%c%c\n' a b c
printf '\x41\x42\n'
printf '\101\n'
