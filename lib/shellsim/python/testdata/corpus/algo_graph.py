from collections import deque, defaultdict
edges = [("a", "b"), ("b", "c"), ("a", "d"), ("d", "c"), ("c", "e"), ("e", "f")]
g = defaultdict(list)
for u, v in edges:
    g[u].append(v)
    g[v].append(u)

def bfs(start):
    seen = {start: 0}
    q = deque([start])
    while q:
        u = q.popleft()
        for v in sorted(g[u]):
            if v not in seen:
                seen[v] = seen[u] + 1
                q.append(v)
    return seen

print(bfs("a"))
def dfs(u, seen=None):
    seen = seen if seen is not None else []
    seen.append(u)
    for v in sorted(g[u]):
        if v not in seen:
            dfs(v, seen)
    return seen
print(dfs("a"))
