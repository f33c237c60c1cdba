def step(board):
    h, w = len(board), len(board[0])
    def n(r, c):
        return sum(board[(r + dr) % h][(c + dc) % w] for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    return [[1 if (board[r][c] and n(r, c) in (2, 3)) or (not board[r][c] and n(r, c) == 3) else 0 for c in range(w)] for r in range(h)]
b = [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
for _ in range(4):
    b = step(b)
for row in b:
    print("".join(".#"[c] for c in row))
