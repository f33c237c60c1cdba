from itertools import groupby, chain, product, combinations, accumulate, count, islice
records = [("fruit", "apple"), ("fruit", "pear"), ("veg", "kale"), ("fruit", "fig")]
for k, g in groupby(sorted(records), key=lambda r: r[0]):
    print(k, [x[1] for x in g])
print(list(chain("ab", [1, 2])), len(list(product(range(3), repeat=3))))
print(sum(1 for _ in combinations(range(10), 3)), list(accumulate([3, 1, 4, 1, 5], max)))
print(list(islice(count(1), 0, 10, 3)), list(zip(count(), "abc")))
