import sys
for i in range(3):
    print(i, end=" ", flush=True)
print()
print("a", "b", sep="")
print("multi\nline\nstring")
print(repr(print("inner")))
sys.stdout.write("%d items\n" % 3)
print(file=sys.stdout)
print("end")
