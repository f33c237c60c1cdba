rows, cols = 3, 4
m = [[r * cols + c for c in range(cols)] for r in range(rows)]
for row in m:
    print(" ".join(f"{v:2d}" for v in row))
print([sum(col) for col in zip(*m)], [max(row) for row in m], sum(map(sum, m)))
rot = [list(r) for r in zip(*m[::-1])]
print(rot)
print([[m[r][c] for r in range(rows)] for c in range(cols)] == [list(c) for c in zip(*m)])
