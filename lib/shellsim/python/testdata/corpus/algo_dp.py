from functools import lru_cache

@lru_cache(maxsize=None)
def lcs(a, b):
    if not a or not b:
        return 0
    if a[0] == b[0]:
        return 1 + lcs(a[1:], b[1:])
    return max(lcs(a[1:], b), lcs(a, b[1:]))

print(lcs("AGGTAB", "GXTXAYB"))

def knapsack(items, cap):
    dp = [0] * (cap + 1)
    for w, v in items:
        for c in range(cap, w - 1, -1):
            dp[c] = max(dp[c], dp[c - w] + v)
    return dp[cap]
print(knapsack([(1, 1), (3, 4), (4, 5), (5, 7)], 7))

def edit(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
print(edit("kitten", "sitting"), edit("", "abc"))
