def make_tree(depth):
    if depth == 0:
        return None
    return {"l": make_tree(depth - 1), "r": make_tree(depth - 1)}
def count(t):
    return 0 if t is None else 1 + count(t["l"]) + count(t["r"])
def height(t):
    return 0 if t is None else 1 + max(height(t["l"]), height(t["r"]))
t = make_tree(6)
print(count(t), height(t))
import sys
print(sys.getrecursionlimit() >= 1000)
def deep(n):
    return 0 if n == 0 else 1 + deep(n - 1)
print(deep(500))
