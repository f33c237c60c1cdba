data = bytes(range(256))
with open("blob.bin", "wb") as f:
    f.write(data)
with open("blob.bin", "rb") as f:
    head = f.read(4)
    f.seek(-4, 2)
    tail = f.read()
print(head, tail, len(open("blob.bin", "rb").read()))
import os
print(os.path.getsize("blob.bin"), os.stat("blob.bin").st_size)
with open("blob.bin", "ab") as f:
    f.write(b"\x00\x01")
print(os.path.getsize("blob.bin"))
