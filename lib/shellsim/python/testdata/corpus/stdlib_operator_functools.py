import operator, functools
nums = [3, 1, 4, 1, 5, 9, 2, 6]
print(functools.reduce(operator.mul, nums), functools.reduce(max, nums))
print(list(map(operator.neg, nums[:3])), sorted(zip("abc", [3, 1, 2]), key=operator.itemgetter(1)))
print(operator.contains([1, 2], 2), operator.truth(0), operator.getitem("abc", 1))
add5 = functools.partial(operator.add, 5)
print(add5(10), add5.args, list(map(add5, range(3))))
@functools.cache
def count_ways(n):
    return 1 if n <= 1 else count_ways(n - 1) + count_ways(n - 2)
print(count_ways(60))
