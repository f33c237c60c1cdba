def read_lines(text):
    for line in text.splitlines():
        yield line
def parse(lines):
    for line in lines:
        if line and not line.startswith("#"):
            k, _, v = line.partition("=")
            yield k.strip(), v.strip()
def to_dict(pairs):
    return dict(pairs)
cfg = """
# comment
name = demo
port = 8080
debug = true
"""
print(to_dict(parse(read_lines(cfg))))
gen = (x ** 2 for x in range(10) if x % 3 == 0)
print(list(gen))
print(sum(len(w) for w in ["ab", "cde"]), any(x > 5 for x in [1, 7]), all(x for x in []))
