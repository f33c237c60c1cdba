import struct
packed = struct.pack("<HIq?3s", 1, 2, -3, True, b"abc")
print(packed, len(packed), struct.unpack("<HIq?3s", packed))
print(struct.pack(">f", 1.5), struct.unpack(">d", struct.pack(">d", 3.14)), struct.calcsize("<5s2H"))
header = b"\x89PNG\r\n\x1a\n"
print(header[:4], header.startswith(b"\x89PNG"), list(header[:3]), header.hex(" ") if False else header.hex())
