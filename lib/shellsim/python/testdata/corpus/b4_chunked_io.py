with open("big.txt", "w") as f:
    for i in range(1000):
        f.write(f"line {i}\n")
count = 0
size = 0
with open("big.txt") as f:
    while True:
        chunk = f.read(1000)
        if not chunk:
            break
        count += 1
        size += len(chunk)
print(count, size)
with open("big.txt") as f:
    print(sum(1 for _ in f))
import os
os.remove("big.txt")
