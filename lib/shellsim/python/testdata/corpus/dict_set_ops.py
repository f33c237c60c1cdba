d = {"b": 2, "a": 1}
d["c"] = 3
d.update(d=4)
print(d, list(d), list(d.values()), list(d.items())[0])
print(d.get("z"), d.get("z", 0), d.pop("d"), d.setdefault("e", 5), d)
print({**d, "f": 6}, d | {"a": 100}, "a" in d, len(d))
del d["e"]
print(sorted(d, key=d.get, reverse=True), dict.fromkeys("xy", 0))
s = {1, 2, 3}
t = {3, 4}
print(s | t, s & t, s - t, s ^ t, s <= {1, 2, 3, 4}, s.isdisjoint({9}))
s.add(9); s.discard(1)
print(sorted(s), frozenset([1, 2]) == frozenset([2, 1]), len(set("mississippi")))
nested = {"x": {"y": [1, 2, {"z": None}]}}
print(nested["x"]["y"][2], repr(nested))
print(sorted(d.items(), key=lambda kv: -kv[1]))
keys = d.keys()
d["new"] = 7
print(keys, "new" in keys, keys & {"a", "q"})
