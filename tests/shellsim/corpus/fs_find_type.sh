mkdir -p top/mid/bottom
touch top/f1 top/mid/f2
find top -type d | sort
find top -type f | sort
