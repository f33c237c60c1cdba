grades = {"ann": "A", "bob": "B", "cid": "A", "dee": "C"}
by_grade = {}
for name, g in grades.items():
    by_grade.setdefault(g, []).append(name)
print(by_grade)
print({g: sorted(n for n, gg in grades.items() if gg == g) for g in sorted(set(grades.values()))})
counts = {c: "mississippi".count(c) for c in sorted(set("mississippi"))}
print(counts, max(counts, key=counts.get))
