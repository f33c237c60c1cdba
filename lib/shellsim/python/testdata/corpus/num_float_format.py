vals = [0.1, 1/3, 2/3, 1e-10, 123456789.123, 1e100, -0.5, 2.5, 100.0, 3.14159265358979]
for v in vals:
    print(repr(v), str(v), f"{v:.3f}", f"{v:e}", f"{v:g}", round(v, 2))
print(0.1 + 0.2 == 0.3, abs((0.1 + 0.2) - 0.3) < 1e-9, 1e308 * 10, -1e308 * 10, float("inf") - float("inf"))
print(int(2.9), int(-2.9), round(2.675, 2), round(1.5), round(2.5), round(-0.5))
print(7.0 // 2, 7.5 % 2, -7.5 % 2, divmod(7.5, 2), 2 ** 0.5, 10 ** -3)
print(float("1e3"), float(" 2.5 "), float("-inf"), (0.1).as_integer_ratio(), (3.0).is_integer())
