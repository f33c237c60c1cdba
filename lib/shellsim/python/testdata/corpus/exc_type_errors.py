tests = [lambda: 1 + "a", lambda: len(5), lambda: [1][5], lambda: {}["k"], lambda: int("x"),
         lambda: None.attr, lambda: undefined_name, lambda: "a" * "b", lambda: (1, 2)[0].foo,
         lambda: float("nan") + [], lambda: sorted([1, "a"]), lambda: {[]: 1}]
for t in tests:
    try:
        t()
    except Exception as e:
        print(type(e).__name__ + ":", e)
