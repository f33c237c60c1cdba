mkdir -p src/sub
echo 'TODO: fix this' > src/a.py
echo 'print(1)' > src/b.py
echo 'TODO: and this' > src/sub/c.py
grep -rl TODO src | sort
grep -rh TODO src | sort
