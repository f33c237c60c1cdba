import re
print(re.findall(r"(?i)hello", "Hello HELLO hello"), re.sub(r"\s+", " ", "a   b \t\n c"))
print(re.split(r"(\d)", "a1b2c"), re.split(r"\W+", "Words, words, words."), re.split(",", "a,b,,c", maxsplit=2))
m = re.search(r"(\d+)-(\d+)?", "range 10- end")
print(m.groups(), m.group(2), m.groups("none"), m.lastindex)
print(re.sub(r"(?P<w>\w+)", r"<\g<w>>", "hi there"), re.sub("a|b", "", "abcab", count=2))
print(bool(re.match(r"^\d{3}-\d{4}$", "555-1234")), re.findall(r"[A-Z][a-z]+", "HelloWorldFooBar"))
p = re.compile(r"""
    (\w+)   # word
    @       # at
    (\w+)   # domain
""", re.VERBOSE)
print(p.findall("a@b c@d"), p.pattern.count("\n") > 0)
print(re.escape("1+1=2?"), re.fullmatch(r"[a-f0-9]+", "deadbeef") is not None, re.sub(r"^", "> ", "l1\nl2", flags=re.M))
