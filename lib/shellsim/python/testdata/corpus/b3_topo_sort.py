deps = {"app": ["lib", "utils"], "lib": ["core"], "utils": ["core"], "core": []}
order, seen = [], set()
def visit(n):
    if n in seen:
        return
    seen.add(n)
    for d in sorted(deps[n]):
        visit(d)
    order.append(n)
for n in sorted(deps):
    visit(n)
print(order)
indeg = {n: 0 for n in deps}
for n, ds in deps.items():
    for d in ds:
        indeg[n] += 1
ready = sorted(n for n, k in indeg.items() if k == 0)
print(ready)
