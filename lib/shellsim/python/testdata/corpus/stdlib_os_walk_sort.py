import os
os.makedirs("tree/a/b", exist_ok=True)
os.makedirs("tree/c", exist_ok=True)
for p in ["tree/x.txt", "tree/a/y.py", "tree/a/b/z.py", "tree/c/w.md"]:
    with open(p, "w") as f:
        f.write(p)
py = []
for root, dirs, files in os.walk("tree"):
    dirs.sort()
    for f in sorted(files):
        if f.endswith(".py"):
            py.append(os.path.join(root, f))
print(py)
print(sorted(os.listdir("tree")), os.path.isdir("tree/a"), os.path.getsize("tree/x.txt"))
for root, dirs, files in os.walk("tree", topdown=False):
    for f in files:
        os.remove(os.path.join(root, f))
    for d in dirs:
        os.rmdir(os.path.join(root, d))
os.rmdir("tree")
print(os.path.exists("tree"))
