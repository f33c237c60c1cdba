printf 'A\na\nB\nb\nb\n' | uniq -i
