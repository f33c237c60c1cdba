import os, shutil, tempfile
base = tempfile.mkdtemp()
os.makedirs(os.path.join(base, "a", "b"))
with open(os.path.join(base, "a", "f.txt"), "w") as f:
    f.write("one\ntwo\n")
with open(os.path.join(base, "a", "f.txt"), "a") as f:
    f.write("three\n")
with open(os.path.join(base, "a", "f.txt")) as f:
    print(f.readline(), f.readlines())
print(sorted(os.listdir(os.path.join(base, "a"))))
for root, dirs, files in os.walk(base):
    print(os.path.relpath(root, base), sorted(dirs), sorted(files))
shutil.copy(os.path.join(base, "a", "f.txt"), os.path.join(base, "g.txt"))
print(os.path.getsize(os.path.join(base, "g.txt")), os.path.exists(os.path.join(base, "g.txt")))
os.rename(os.path.join(base, "g.txt"), os.path.join(base, "h.txt"))
print(os.path.isfile(os.path.join(base, "h.txt")), os.path.isdir(os.path.join(base, "a")))
print(os.path.join("a", "b", "c"), os.path.splitext("x/y.tar.gz"), os.path.basename("/p/q.py"), os.path.dirname("/p/q.py"))
print(os.path.normpath("a/./b/../c"), os.path.split("/a/b"), os.path.isabs("/x"), os.sep)
shutil.rmtree(base)
print(os.path.exists(base))
try:
    open("/nonexistent/file")
except FileNotFoundError as e:
    print(e.errno, e.strerror, e.filename)
with open("bin.dat", "wb") as f:
    f.write(bytes(range(5)))
with open("bin.dat", "rb") as f:
    print(f.read())
os.remove("bin.dat")
print(os.environ.get("HOME"), "PATH" in os.environ, os.getenv("NOPE", "dflt"))
