import io, sys, contextlib
buf = io.StringIO()
buf.write("hello ")
print("world", file=buf)
print(repr(buf.getvalue()))
buf.seek(0)
print(buf.read(5), buf.readline(), repr(buf.read()))
out = io.StringIO()
with contextlib.redirect_stdout(out):
    print("captured")
print("got:", out.getvalue().strip())
b = io.BytesIO(b"line1\nline2\n")
print(b.readline(), b.read())
print("a", "b", sep="-", end="!\n")
sys.stdout.write("direct\n")
with contextlib.suppress(KeyError):
    {}["x"]
print("suppressed")
@contextlib.contextmanager
def tag(name):
    print(f"<{name}>")
    yield name
    print(f"</{name}>")
with tag("b") as t:
    print("body", t)
