for n in 7 42 123; do printf '%05d|%-5s|%5s\n' "$n" "$n" "$n"; done
