import os
tests = [lambda: open("missing.txt"), lambda: os.mkdir("/"), lambda: os.rmdir("nonexistent_dir"),
         lambda: os.listdir("/nonexistent"), lambda: open("/", "r")]
os.mkdir("d1")
open("d1/f", "w").close()
tests.append(lambda: os.rmdir("d1"))
tests.append(lambda: os.remove("d1"))
for t in tests:
    try:
        t()
        print("no error")
    except OSError as e:
        print(type(e).__name__, e.errno)
