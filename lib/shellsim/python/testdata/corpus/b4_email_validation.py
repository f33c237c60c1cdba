import re
EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
for e in ["a@b.com", "first.last+tag@sub.domain.org", "bad@", "@bad.com", "no spaces@x.io", "x@y"]:
    print(f"{e:<32} {bool(EMAIL.match(e))}")
