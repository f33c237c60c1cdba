from string import Template
t = Template("Hello $name, you owe $$${amount}")
print(t.substitute(name="Ann", amount=5))
print(t.safe_substitute(name="Bob"))
try:
    t.substitute(name="x")
except KeyError as e:
    print("KeyError", e)
import string
print(string.ascii_uppercase[:5], string.hexdigits, len(string.printable))
