import json
tree = {"name": "root", "children": [{"name": "a", "children": [{"name": "a1", "children": []}]}, {"name": "b", "children": []}]}
def walk(node, depth=0):
    yield depth, node["name"]
    for c in node["children"]:
        yield from walk(c, depth + 1)
for d, n in walk(tree):
    print("  " * d + n)
s = json.dumps(tree, separators=(",", ":"))
print(len(s), json.loads(s) == tree)
def count_leaves(n):
    return 1 if not n["children"] else sum(count_leaves(c) for c in n["children"])
print(count_leaves(tree))
