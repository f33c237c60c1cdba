mkdir conv
touch conv/a.TXT conv/b.TXT
for f in conv/*.TXT; do mv "$f" "${f%.TXT}.txt"; done
ls conv
