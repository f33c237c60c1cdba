printf 'b\na\nb\nc\na\n' | sort -u
