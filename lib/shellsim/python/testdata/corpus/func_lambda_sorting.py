people = [("alice", 30, "NY"), ("bob", 25, "LA"), ("carol", 30, "LA"), ("dave", 25, "NY")]
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print(sorted(people, key=lambda p: p[2], reverse=True))
by_city = {}
for name, age, city in people:
    by_city.setdefault(city, []).append(name)
print(by_city)
print(min(people, key=lambda p: p[1])[0], max(people, key=lambda p: (p[1], p[0]))[0])
words = "the quick brown fox jumps over the lazy dog".split()
print(sorted(words, key=len), sorted(set(words), key=lambda w: (len(w), w)))
