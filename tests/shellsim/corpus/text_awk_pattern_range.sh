printf 'start\na\nb\nend\nc\n' | awk '/start/,/end/'
