set -e
f() { echo "in f"; return 0; }
f
g() { return 1; }
g || echo "g failed but handled"
echo "done"
