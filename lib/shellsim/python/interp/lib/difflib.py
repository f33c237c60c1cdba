"""A small difflib: ndiff, unified_diff, SequenceMatcher.ratio (LCS-based)."""


def _lcs(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            dp[i][j] = dp[i + 1][j + 1] + 1 if a[i] == b[j] else max(dp[i + 1][j], dp[i][j + 1])
    ops = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            ops.append((" ", a[i]))
            i += 1
            j += 1
        elif dp[i + 1][j] >= dp[i][j + 1]:
            ops.append(("-", a[i]))
            i += 1
        else:
            ops.append(("+", b[j]))
            j += 1
    ops.extend(("-", x) for x in a[i:])
    ops.extend(("+", x) for x in b[j:])
    return ops


def ndiff(a, b, linejunk=None, charjunk=None):
    for tag, line in _lcs(a, b):
        yield f"{tag} {line}"


def unified_diff(a, b, fromfile="", tofile="", fromfiledate="", tofiledate="", n=3, lineterm="\n"):
    ops = _lcs(a, b)
    if all(t == " " for t, _ in ops):
        return
    yield f"--- {fromfile}{lineterm}"
    yield f"+++ {tofile}{lineterm}"
    yield f"@@ -1,{len(a)} +1,{len(b)} @@{lineterm}"
    for tag, line in ops:
        yield f"{tag}{line}"


class SequenceMatcher:
    def __init__(self, isjunk=None, a="", b="", autojunk=True):
        self.a, self.b = a, b

    def set_seqs(self, a, b):
        self.a, self.b = a, b

    def ratio(self):
        total = len(self.a) + len(self.b)
        if not total:
            return 1.0
        matches = sum(1 for t, _ in _lcs(self.a, self.b) if t == " ")
        return 2.0 * matches / total


def get_close_matches(word, possibilities, n=3, cutoff=0.6):
    scored = []
    for p in possibilities:
        r = SequenceMatcher(None, word, p).ratio()
        if r >= cutoff:
            scored.append((r, p))
    scored.sort(reverse=True)
    return [p for _, p in scored[:n]]
