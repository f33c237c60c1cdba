printf '4\n8\n15\n16\n23\n42\n' | awk '{s+=$1} END {print s/NR}'
