def handle(cmd):
    parts = cmd.split()
    if not parts:
        return "empty"
    op, *args = parts
    handlers = {
        "add": lambda a: sum(map(int, a)),
        "mul": lambda a: eval("*".join(a)) if a else 0,
        "echo": lambda a: " ".join(a),
    }
    f = handlers.get(op)
    return f(args) if f else f"unknown: {op}"
for c in ["add 1 2 3", "mul 2 3 4", "echo hi there", "nope x", ""]:
    print(repr(c), "->", handle(c))
