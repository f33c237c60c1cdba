def inner(d):
    return d["missing"]
def outer():
    return inner({"a": 1})
print("before")
outer()
