printf '  lead\ntrail   \n  both  \n' | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | cat -A
