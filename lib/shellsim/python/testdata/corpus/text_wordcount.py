import re
from collections import Counter
text = """The quick brown fox jumps over the lazy dog.
The dog barks; the fox runs away! Quick, quick."""
words = re.findall(r"[a-z]+", text.lower())
c = Counter(words)
for w, n in c.most_common(4):
    print(f"{w:>6} {n}")
print(len(words), len(set(words)))
print(sorted(c.items())[:3])
