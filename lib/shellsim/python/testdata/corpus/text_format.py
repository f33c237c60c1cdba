rows = [("alice", 31, 1234.5), ("bob", 4, 7.25), ("carol", 120, -3.0)]
print(f"{'name':<8}|{'age':^5}|{'score':>10}")
for name, age, score in rows:
    print(f"{name:<8}|{age:^5d}|{score:>10.2f}")
print("{:,}".format(1234567890), "{:.3e}".format(123456.789), "{:08.3f}".format(-3.14159))
print("{0}-{1}-{0}".format("a", "b"), "{x}/{y}".format(x=1, y=2))
print("%5s|%-5s|%05d|%.2f|%x|%r" % ("ab", "cd", 42, 2.675, 255, "q"))
print(format(0.5, ".0%"), format(1e21), format(123, "b"), f"{3.0:g}", f"{1e-7:g}")
print(repr(0.1 + 0.2), 1/7, 1e16, 1.5e-10, float("inf"), -0.0)
print(str(12345678901234567890.0), 2.5e-5, 100.0, 1e22)
