import os
start = os.getcwd()
os.makedirs("sub/dir", exist_ok=True)
os.chdir("sub")
print(os.getcwd() == os.path.join(start, "sub"), os.listdir("."))
open("dir/f.txt", "w").write("x")
os.chdir("..")
print(os.path.exists("sub/dir/f.txt"), os.path.relpath(os.path.join(start, "sub/dir"), start))
try:
    os.chdir("nope")
except FileNotFoundError as e:
    print("FileNotFoundError", e.filename)
