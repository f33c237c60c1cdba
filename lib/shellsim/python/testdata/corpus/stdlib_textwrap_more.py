import textwrap
text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua."
for w in (20, 35):
    print(textwrap.fill(text, width=w))
    print("--")
print(textwrap.wrap("short", 10), textwrap.wrap("", 10))
print(textwrap.fill("a b c", width=1))
print(textwrap.indent("one\n\ntwo", "  "))
print(repr(textwrap.dedent("\n    a\n      b\n    c\n")))
