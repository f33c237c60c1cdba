import os, shutil, tempfile
d = tempfile.mkdtemp(prefix="demo")
src = os.path.join(d, "src")
os.makedirs(os.path.join(src, "inner"))
with open(os.path.join(src, "inner", "f.txt"), "w") as f:
    f.write("payload")
shutil.copytree(src, os.path.join(d, "dst"))
print(open(os.path.join(d, "dst", "inner", "f.txt")).read())
shutil.move(os.path.join(d, "dst"), os.path.join(d, "moved"))
print(sorted(os.listdir(d)))
with tempfile.TemporaryDirectory() as td:
    p = os.path.join(td, "x")
    open(p, "w").write("x")
    print(os.path.exists(p))
print(os.path.exists(td))
shutil.rmtree(d)
print(os.path.exists(d), shutil.which("definitely-not-a-command"))
