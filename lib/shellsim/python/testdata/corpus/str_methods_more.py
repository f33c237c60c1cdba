s = "The Quick Brown Fox"
print(s.lower().split(), s.casefold(), s.count("o"), s.index("Q"), s.startswith("The"))
print(s.replace(" ", "_"), s.split(" ", 2), s.rsplit(" ", 1), "-".join(reversed(s.split())))
print("  padded  ".strip(), "xxhixx".strip("x"), "abc".rjust(5, "0"), "%-6s|" % "ab", "{:^7}".format("mid"))
print("Hello"[1:-1], "Hello"[::-2], "a,b;c".replace(",", ";").split(";"), "CamelCaseString".swapcase())
print("tab\tseparated\tvalues".split("\t"), "a\nb\n".splitlines(True), "x".isidentifier(), "1x".isidentifier())
print("{0:>8.3f}|{1:<8}|{2:^8}".format(3.14159, "left", "mid"), "{:+d} {:+d}".format(5, -5))
print(str(123).zfill(6), "-42".zfill(5), "%08.2f" % 3.14159, "%+.1e" % 12345.678)
print("ß".casefold(), "İ".lower().encode(), "ﬁ".upper())
