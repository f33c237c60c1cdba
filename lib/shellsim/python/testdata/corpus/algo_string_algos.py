def is_pal(s):
    s = "".join(c.lower() for c in s if c.isalnum())
    return s == s[::-1]
print(is_pal("A man, a plan, a canal: Panama"), is_pal("hello"))
def anagrams(words):
    groups = {}
    for w in words:
        groups.setdefault("".join(sorted(w)), []).append(w)
    return sorted(sorted(g) for g in groups.values())
print(anagrams(["eat", "tea", "tan", "ate", "nat", "bat"]))
def rle(s):
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(f"{j - i}{s[i]}")
        i = j
    return "".join(out)
print(rle("aaabccdddd"), rle(""))
def caesar(s, k):
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if c.islower() else c for c in s)
print(caesar("hello world", 3), caesar(caesar("abc", 5), -5))
