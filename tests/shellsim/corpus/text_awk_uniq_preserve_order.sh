printf 'c\na\nc\nb\na\n' | awk '!seen[$0]++'
