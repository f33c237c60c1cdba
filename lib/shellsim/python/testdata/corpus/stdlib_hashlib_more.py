import hashlib
for algo in ("md5", "sha1", "sha256", "sha512"):
    print(algo, hashlib.new(algo, b"The quick brown fox").hexdigest()[:32])
h = hashlib.sha256()
for chunk in [b"a" * 1000] * 5:
    h.update(chunk)
print(h.hexdigest(), len(h.digest()))
print(hashlib.md5("unicode é".encode()).hexdigest())
