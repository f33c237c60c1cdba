import difflib
a = ["one", "two", "three", "four"]
b = ["one", "2", "three", "four", "five"]
for line in difflib.unified_diff(a, b, "a.txt", "b.txt", lineterm=""):
    print(line)
print(round(difflib.SequenceMatcher(None, "abcd", "bcde").ratio(), 3))
