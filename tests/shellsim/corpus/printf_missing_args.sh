printf '%s and %s\n' only
printf '%d\n'
