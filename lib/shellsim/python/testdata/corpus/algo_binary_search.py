def bsearch(xs, t):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == t:
            return mid
        if xs[mid] < t:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
xs = list(range(0, 100, 3))
print([bsearch(xs, t) for t in (0, 3, 99, 50, 97)])
import bisect
print(bisect.bisect_left(xs, 50), bisect.bisect_right(xs, 51), bisect.bisect(xs, 99))
ys = []
for v in [5, 1, 4, 1, 3]:
    bisect.insort(ys, v)
print(ys)
