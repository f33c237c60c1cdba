def to_base(n, b):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    s = ""
    neg = n < 0
    n = abs(n)
    while n:
        n, r = divmod(n, b)
        s = digits[r] + s
    return "-" * neg + s
print([to_base(255, b) for b in (2, 8, 16, 36)], to_base(-10, 3))
print([int(to_base(12345, b), b) for b in (2, 7, 36)])
print(int("ff", 16), int("777", 8), int("z", 36), format(3735928559, "X"))
