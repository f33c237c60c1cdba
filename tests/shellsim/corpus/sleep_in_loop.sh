for i in 1 2 3; do sleep 0.05; echo "tick $i"; done
