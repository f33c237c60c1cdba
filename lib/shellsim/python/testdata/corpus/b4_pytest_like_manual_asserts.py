failures = 0
def expect_eq(a, b, label):
    global failures
    if a != b:
        failures += 1
        print(f"FAIL {label}: {a!r} != {b!r}")
    else:
        print(f"ok   {label}")
expect_eq(sorted([3, 1, 2]), [1, 2, 3], "sort")
expect_eq("a,b".split(","), ["a", "b"], "split")
expect_eq({1, 2} | {3}, {1, 2, 3}, "union")
expect_eq(round(2.5), 3, "banker rounding")
print(f"{failures} failure(s)")
