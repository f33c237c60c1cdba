A = {1, 2, 3, 4}
B = {3, 4, 5}
print(A.union(B), A.intersection(B), A.difference(B), A.symmetric_difference(B))
print(A.issuperset({1, 2}), {1}.issubset(A), A.isdisjoint({9}), len(A | B))
C = set()
C |= {1}
C &= {1, 2}
C -= {5}
C ^= {7}
print(C, frozenset(A) | B, type(frozenset(A) | B).__name__)
print(sorted({x % 4 for x in range(20)}), {s for s in "hello"} == set("helo"))
