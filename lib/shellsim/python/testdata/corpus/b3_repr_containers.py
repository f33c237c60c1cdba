print([1, "a", None, 2.5, True, (1,), [], {}, set(), frozenset()])
print({"k": [1, {"n": (2, 3)}], 2: "two", None: None, (1, 2): {3}})
print(repr("quote's"), repr('dq"'), repr("both'\""), repr("\t\n\\"), repr("\x00\x7f\u2028"))
print(str([1.0, 1e-7, 1e16, -0.0]), repr(1/3), [float("inf"), float("nan")])
a = [1]
a.append(a)
print(a)
d = {}
d["self"] = d
print(d)
