parts = []
for i in range(5):
    parts.append(f"item{i}")
print(",".join(parts))
s = ""
for ch in "abcdef":
    s = ch + s
print(s)
lines = ["first", "second", "third"]
print("\n".join(f"{i:>2}: {l}" for i, l in enumerate(lines, 1)))
print("".join(map(str, range(10))), " ".join(w.capitalize() for w in "the end of it".split()))
print("=" * 20, "-" * 0 + "|", "ab" * 3)
