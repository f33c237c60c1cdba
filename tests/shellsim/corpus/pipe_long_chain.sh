seq 1 50 | grep 5 | sed 's/5/five/' | awk '{print toupper($0)}' | sort -r | head -3
