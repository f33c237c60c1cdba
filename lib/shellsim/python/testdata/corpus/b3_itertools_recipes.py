from itertools import islice, chain, groupby, tee, zip_longest
def take(n, it):
    return list(islice(it, n))
def chunks(seq, n):
    it = iter(seq)
    while batch := take(n, it):
        yield batch
print(list(chunks(range(10), 3)))
def window(seq, n):
    its = tee(seq, n)
    for i, it in enumerate(its):
        for _ in range(i):
            next(it, None)
    return zip(*its)
print(list(window([1, 2, 3, 4, 5], 3)))
print([k for k, _ in groupby("aaabbbcca")], list(zip_longest([1, 2], "a", fillvalue=0)))
def unique(it):
    seen = set()
    for x in it:
        if x not in seen:
            seen.add(x)
            yield x
print(list(unique("abracadabra")))
