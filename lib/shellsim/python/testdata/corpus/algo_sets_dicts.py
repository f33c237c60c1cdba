inventory = {"apple": 3, "pear": 0, "kiwi": 7}
print({k: v for k, v in inventory.items() if v}, max(inventory, key=inventory.get), sum(inventory.values()))
a = set("hello world")
b = set("low key")
print(sorted(a & b), sorted(a - b), sorted(a ^ b)[:4], len(a | b))
votes = ["x", "y", "x", "z", "x", "y"]
tally = {}
for v in votes:
    tally[v] = tally.get(v, 0) + 1
print(sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])))
inv = {v: k for k, v in {"a": 1, "b": 2}.items()}
print(inv, list(zip(*inv.items())))
nested = {}
for path in ["a/b/c", "a/b/d", "a/e"]:
    node = nested
    for part in path.split("/"):
        node = node.setdefault(part, {})
print(nested)
