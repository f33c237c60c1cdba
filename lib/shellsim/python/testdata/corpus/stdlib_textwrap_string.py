import textwrap, string
text = "The quick brown fox jumps over the lazy dog and keeps running through the forest until night falls."
print(textwrap.fill(text, width=30))
print(textwrap.wrap(text, 40))
print(textwrap.dedent("""
    def f():
        return 1
"""))
print(textwrap.indent("a\nb", "> "), textwrap.shorten("Hello world this is long", width=15))
print(string.ascii_lowercase, string.digits, string.punctuation)
print(string.Template("$who likes ${what}").substitute(who="tim", what="kung pao"), string.capwords("hello world"))
