def averager():
    total, count = 0.0, 0
    avg = None
    while True:
        x = yield avg
        total += x
        count += 1
        avg = total / count
g = averager()
next(g)
print([g.send(v) for v in (10, 20, 30, 40)])
def gen_with_return():
    yield 1
    return "result"
def delegator():
    r = yield from gen_with_return()
    yield r
print(list(delegator()))
def closer():
    try:
        yield 1
        yield 2
    except GeneratorExit:
        print("closing")
        raise
c = closer()
print(next(c))
c.close()
