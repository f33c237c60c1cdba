def f():
    try:
        return "try"
    finally:
        print("finally runs")
print(f())
def g():
    for i in range(3):
        try:
            if i == 1:
                continue
            print("body", i)
        finally:
            print("cleanup", i)
g()
def h():
    try:
        raise ValueError("x")
    except ValueError:
        return "handled"
    finally:
        print("h finally")
print(h())
def nested():
    try:
        try:
            1 / 0
        finally:
            print("inner finally")
    except ZeroDivisionError:
        print("outer caught")
nested()
