b = b"hello\x00world"
print(b, len(b), b[0], b[1:5], b.split(b"\x00"), b.upper(), b.hex())
print(bytes.fromhex("48656c6c6f"), bytes([72, 105]), bytearray(b"abc"), list(b"AB"))
ba = bytearray(b"xyz")
ba.append(33)
ba[0] = 88
print(ba, bytes(ba), ba.decode())
print(b"a" + b"b", b"ab" * 2, b"b" in b"abc", b"abc".startswith(b"ab"), b" x ".strip())
print("héllo".encode("latin-1"), "héllo".encode(), int.from_bytes(b"\x01\x00", "little"), (258).to_bytes(2, "big"))
