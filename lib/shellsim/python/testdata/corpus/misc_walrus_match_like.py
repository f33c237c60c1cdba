import re
data = ["x=1", "bad", "y=22", "z="]
parsed = [(m.group(1), int(m.group(2))) for s in data if (m := re.match(r"(\w)=(\d+)$", s))]
print(parsed)
total = 0
while (n := len(parsed)) > 0:
    total += parsed.pop()[1]
print(total, n)
def classify(v):
    if isinstance(v, bool):
        return "bool"
    elif isinstance(v, int):
        return "int"
    elif isinstance(v, (list, tuple)):
        return f"seq{len(v)}"
    return type(v).__name__
print([classify(v) for v in [True, 3, [1, 2], (1,), "s", None, 1.5]])
