words = ["apple", "banana", "cherry", "date", "elderberry", "fig"]
print([w.upper() for w in words if len(w) > 4 if "e" in w])
print({w[0]: [x for x in words if x[0] == w[0]] for w in words})
print([(w, i) for i, w in enumerate(words) if i % 2 == 0])
print(sum(len(w) for w in words), [len(w) for w in words].index(max(len(w) for w in words)))
print(["".join(sorted(set(w))) for w in words[:3]])
