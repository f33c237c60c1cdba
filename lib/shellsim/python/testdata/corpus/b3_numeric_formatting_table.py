rows = [("alpha", 0.5, 12), ("beta", 12.3456, 7), ("gamma", 1000.0, 123456)]
for name, ratio, count in rows:
    print(f"|{name:<7}|{ratio:>9.3f}|{count:>8,}|{ratio:>8.1%}|{count:08x}|")
print("{:=^30}".format(" END "))
print("%-10s|%5.1f|%-5d|" % ("x", 2.25, 3))
print(format(1234.5678, ",.2f"), format(0.000123, ".2e"), format(-3, "+d"), format(7, "3d"))
