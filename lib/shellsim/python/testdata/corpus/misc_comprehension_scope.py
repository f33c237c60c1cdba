x = "outer"
res = [x for x in range(3)]
print(res, x)
matrix = [[i * j for j in range(1, 4)] for i in range(1, 4)]
print(matrix, [row[i] for i, row in enumerate(matrix)])
flat = [v for row in matrix for v in row if v % 2 == 0]
print(flat, {v for v in flat}, {v: v ** 2 for v in flat if v > 2})
funcs = [lambda: i for i in range(3)]
print([f() for f in funcs])
class C:
    vals = [1, 2, 3]
    doubled = [v * 2 for v in vals]
print(C.doubled)
