def popcount(n):
    c = 0
    while n:
        n &= n - 1
        c += 1
    return c
print([popcount(i) for i in range(16)], bin(0b1011 << 3), (0xF0 >> 4) & 0x3)
def gray(n):
    return [i ^ (i >> 1) for i in range(1 << n)]
print(gray(3), [format(g, "03b") for g in gray(3)])
subsets = [[x for j, x in enumerate("abc") if mask >> j & 1] for mask in range(8)]
print(subsets)
