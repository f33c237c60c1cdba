{ echo "to stdout"; echo "to stderr" >&2; } 2>&1 | sort
