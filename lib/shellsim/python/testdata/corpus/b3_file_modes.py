with open("f.txt", "w") as f:
    print(f.write("abc\n"), f.write("def"))
with open("f.txt", "a") as f:
    f.write("\nghi\n")
with open("f.txt") as f:
    print(f.read(2), f.readline(), f.tell() > 0, f.read())
with open("f.txt", "r+") as f:
    f.seek(0)
    f.write("XYZ")
print(open("f.txt").read())
with open("f.txt") as f:
    for i, line in enumerate(f, 1):
        print(i, line.rstrip())
try:
    with open("f.txt", "x") as f:
        pass
except FileExistsError:
    print("exists")
import os
os.remove("f.txt")
