for s in ["42", " 7 ", "-3", "0x10", "1e3", "abc", "", "3.0", "٣"]:
    try:
        print(repr(s), int(s))
    except ValueError as e:
        print(repr(s), "ValueError:", e)
for s in ["3.14", "1e-3", "inf", "-nan", "1_000.5", "x"]:
    try:
        print(repr(s), float(s))
    except ValueError as e:
        print(repr(s), "ValueError:", e)
