class DataError(Exception):
    pass
def validate(rows):
    for i, r in enumerate(rows):
        if r < 0:
            raise DataError(f"row {i}: negative value {r}")
print("validating")
validate([1, 2, -3])
