try:
    {}["missing"]
except KeyError as e:
    print(e.args, str(e), repr(e))
try:
    [].pop()
except IndexError as e:
    print(e.args)
try:
    open("/no/such/file")
except OSError as e:
    print(type(e).__name__, e.errno, e.strerror, e.filename)
try:
    int("x")
except ValueError as e:
    print(e.args[0])
e = ValueError("a", "b")
print(e.args, str(e), repr(e))
e2 = Exception()
print(repr(e2), str(e2) == "")
