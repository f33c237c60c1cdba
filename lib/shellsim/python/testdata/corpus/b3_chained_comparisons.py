x = 5
print(1 < x < 10, 1 < x > 3, x == 5 != 6, 0 <= x <= 4)
print(1 == 1.0 == True, "a" < "b" < "c", [1] < [1, 0] < [2])
print(None is None, [] is not [], 1 in [1, 2] in [[1, 2]])
print(not 1 == 2, (not 1) == 2, -x ** 2, (-x) ** 2, 2 ** 3 ** 2)
