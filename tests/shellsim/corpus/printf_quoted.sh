printf '%q\n' 'a b'
printf '%q\n' "it's"
