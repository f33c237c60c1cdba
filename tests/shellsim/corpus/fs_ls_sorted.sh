touch b.txt a.txt c.md .hidden
ls
echo ---
ls -a
echo ---
ls -A
