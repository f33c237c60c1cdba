from contextlib import contextmanager, ExitStack, suppress, nullcontext
log = []
@contextmanager
def resource(name):
    log.append(f"open {name}")
    try:
        yield name.upper()
    finally:
        log.append(f"close {name}")
with ExitStack() as stack:
    a = stack.enter_context(resource("a"))
    b = stack.enter_context(resource("b"))
    log.append(a + b)
print(log)
try:
    with resource("c"):
        raise ValueError("boom")
except ValueError as e:
    print("caught", e, log[-1])
with suppress(ZeroDivisionError):
    1 / 0
with nullcontext(5) as v:
    print(v)
