if ! mkdir existing 2>/dev/null; then echo "mkdir failed"; fi
if ! mkdir existing 2>/dev/null; then echo "mkdir failed again"; fi
