def matmul(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]
A = [[1, 2], [3, 4]]
B = [[5, 6], [7, 8]]
print(matmul(A, B))
def transpose(m):
    return [list(r) for r in zip(*m)]
print(transpose([[1, 2, 3], [4, 5, 6]]))
def det(m):
    if len(m) == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * det([row[:j] + row[j + 1:] for row in m[1:]]) for j in range(len(m)))
print(det([[2, 0, 1], [1, 3, 2], [1, 1, 1]]))
I = [[int(i == j) for j in range(3)] for i in range(3)]
print(I)
