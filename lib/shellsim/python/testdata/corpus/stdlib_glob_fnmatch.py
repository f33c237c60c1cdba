import glob, fnmatch, os
os.makedirs("g/sub", exist_ok=True)
for n in ["g/a.py", "g/b.py", "g/c.txt", "g/sub/d.py", "g/.hidden.py"]:
    open(n, "w").close()
print(sorted(glob.glob("g/*.py")))
print(sorted(glob.glob("g/**/*.py", recursive=True)))
print(sorted(glob.glob("g/?.txt")), glob.glob("g/none*"))
print(fnmatch.fnmatch("file.py", "*.py"), fnmatch.fnmatch("file.PY", "*.py"), fnmatch.filter(["a.c", "b.h", "c.c"], "*.c"))
print(fnmatch.fnmatch("x1", "x[0-9]"), fnmatch.fnmatch("xa", "x[!a]"))
