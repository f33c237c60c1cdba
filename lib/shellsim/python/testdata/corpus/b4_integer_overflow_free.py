f = 1
for i in range(1, 26):
    f *= i
print(f, len(str(f)), str(f)[:10])
print(2 ** 1000 % (10 ** 9 + 7), pow(7, 10 ** 6, 13), (10 ** 50) // 7)
print(sum(int(d) for d in str(2 ** 500)), hex(2 ** 90), int("9" * 40) + 1)
