s = "naïve café — 日本語 😀"
print(len(s), s.upper(), s[6:10], s[-1], [c for c in s if ord(c) > 127])
print(s.encode("utf-8")[:12], len(s.encode()), s.encode().decode() == s)
print(ascii(s), repr("😀"), "\u00e9" == "é", "\N" if False else "ok")
print(sorted("ébcaÄ"), "ä" < "b", ord("😀"), chr(0x1F600))
print("Ελληνικά".lower(), "straße".title(), "ǅ".upper())
try:
    "é".encode("ascii")
except UnicodeEncodeError as e:
    print("UnicodeEncodeError")
print(b"caf\xc3\xa9".decode("utf-8"), b"\xff".decode("utf-8", "replace"), b"\xff".decode("latin-1"))
