import warnings
def old():
    warnings.warn("old() is deprecated", DeprecationWarning)
    return 1
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    old()
    warnings.warn("custom", UserWarning)
    print(len(w), [str(x.message) for x in w], [x.category.__name__ for x in w])
print("done")
