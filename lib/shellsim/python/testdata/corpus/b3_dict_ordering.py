d = {}
for k in ["z", "a", "m"]:
    d[k] = len(d)
print(d, list(d))
d["a"] = 99
print(d)
del d["z"]
d["z"] = 0
print(d, list(reversed(d)) if hasattr(d, "__reversed__") else sorted(d, reverse=True))
merged = {**{"x": 1, "y": 2}, **{"y": 3, "z": 4}}
print(merged, {k: merged[k] for k in sorted(merged, reverse=True)})
print(dict(sorted({"b": 2, "a": 1}.items())), dict(zip("abc", range(3))), dict([("k", "v")]), dict(a=1, b=2))
