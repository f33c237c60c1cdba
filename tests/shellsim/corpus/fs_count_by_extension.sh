touch a.py b.py c.js d.py e.md f.js
ls | sed 's/.*\.//' | sort | uniq -c
