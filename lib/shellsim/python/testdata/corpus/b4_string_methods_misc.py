s = "  Mixed Case Text, with punctuation!  "
print(s.strip().lower().replace(",", "").replace("!", "").split())
print(s.center(42, "*"), s.strip().rjust(40, "."), s.find("Case"), s.rfind(" "))
print("-".join(filter(None, "a--b---c".split("-"))), "x".join("abc"), "abc".partition("z"))
print("%s has %d chars" % (repr(s.strip()), len(s.strip())), "{!r:^20}".format("hi"))
print("CamelCaseWords".swapcase(), "snake_case_name".title().replace("_", ""), "a\tb".expandtabs(4))
