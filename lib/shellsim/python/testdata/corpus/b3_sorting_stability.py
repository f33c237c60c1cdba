records = [("b", 2), ("a", 2), ("c", 1), ("a", 1), ("b", 1)]
print(sorted(records, key=lambda r: r[1]))
print(sorted(records))
print(sorted(records, key=lambda r: r[0], reverse=True))
s = sorted(records, key=lambda r: r[0])
s = sorted(s, key=lambda r: r[1])
print(s)
words = ["banana", "Apple", "cherry", "apple", "Banana"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=lambda w: (w.lower(), w)))
print(sorted([3, 1, 2], reverse=True), sorted("Mississippi"), sorted({"b": 1, "a": 2}.items(), key=lambda kv: kv[1]))
