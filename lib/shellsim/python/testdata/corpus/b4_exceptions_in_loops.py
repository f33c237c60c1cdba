data = ["1", "2", "x", "4", None, "6"]
total, errors = 0, []
for i, v in enumerate(data):
    try:
        total += int(v)
    except ValueError as e:
        errors.append((i, "value"))
        continue
    except TypeError:
        errors.append((i, "type"))
        continue
    finally:
        pass
print(total, errors)
def first_int(items):
    for it in items:
        try:
            return int(it)
        except (TypeError, ValueError):
            pass
    return None
print(first_int(["a", None, "7", "8"]), first_int([]))
