import base64, hashlib, binascii
data = "Hello, Wörld! 🌍".encode()
enc = base64.b64encode(data)
print(enc, base64.b64decode(enc) == data, base64.urlsafe_b64encode(b"\xfb\xff"), base64.b16encode(b"hi"))
print(hashlib.sha256(data).hexdigest()[:16], binascii.crc32(data), hashlib.md5(b"").hexdigest())
print(base64.b64decode(b"YWJj\n"), base64.b64encode(b"").decode() == "")
