from collections import namedtuple
Rec = namedtuple("Rec", "name score time")
recs = [Rec("a", 90, 12.5), Rec("b", 95, 13.0), Rec("c", 90, 11.0)]
for r in sorted(recs, key=lambda r: (-r.score, r.time)):
    print(f"{r.name}: {r.score} in {r.time}s")
best = max(recs, key=lambda r: r.score)
print(best, best._fields, best._replace(score=0), Rec._make(["z", 1, 2]))
