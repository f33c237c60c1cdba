def outer():
    items = []
    def add(x):
        items.append(x)
        return len(items)
    def get():
        return items
    return add, get
add, get = outer()
add(1); add(2)
print(get())
def counter_factory():
    count = 0
    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc
c1, c2 = counter_factory(), counter_factory()
print(c1(), c1(5), c2(), c1())
x = 1
def show():
    return x
x = 2
print(show())
