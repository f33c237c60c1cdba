def quicksort(xs):
    if len(xs) <= 1:
        return xs
    p, *rest = xs
    return quicksort([x for x in rest if x < p]) + [p] + quicksort([x for x in rest if x >= p])

def merge_sort(a):
    if len(a) < 2:
        return a[:]
    m = len(a) // 2
    l, r = merge_sort(a[:m]), merge_sort(a[m:])
    out = []
    i = j = 0
    while i < len(l) and j < len(r):
        if l[i] <= r[j]:
            out.append(l[i]); i += 1
        else:
            out.append(r[j]); j += 1
    return out + l[i:] + r[j:]

data = [5, 3, 9, 1, 5, 8, 2, 7, 0, -4, 12]
print(quicksort(data))
print(merge_sort(data))
print(sorted(data, reverse=True))
print(sorted(["banana", "Apple", "cherry"], key=str.lower))
