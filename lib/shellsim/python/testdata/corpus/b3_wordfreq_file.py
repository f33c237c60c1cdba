text = """It was the best of times, it was the worst of times,
it was the age of wisdom, it was the age of foolishness"""
with open("tale.txt", "w") as f:
    f.write(text)
import re
from collections import Counter
with open("tale.txt") as f:
    words = re.findall(r"\w+", f.read().lower())
c = Counter(words)
for w, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:5]:
    print(f"{w:<8}{n:>3}")
import os
os.remove("tale.txt")
