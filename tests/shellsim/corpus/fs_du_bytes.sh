printf '%0100d' 0 > hundred
printf 'abc' > three
du -b hundred three
du -cb hundred three | tail -1
