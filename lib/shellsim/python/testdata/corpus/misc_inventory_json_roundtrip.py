import json
from collections import defaultdict
orders = json.loads("""[
 {"id": 1, "items": [{"sku": "A", "qty": 2}, {"sku": "B", "qty": 1}]},
 {"id": 2, "items": [{"sku": "A", "qty": 1}]},
 {"id": 3, "items": []}
]""")
totals = defaultdict(int)
for o in orders:
    for it in o["items"]:
        totals[it["sku"]] += it["qty"]
print(json.dumps(totals, sort_keys=True))
print([o["id"] for o in orders if not o["items"]], max(orders, key=lambda o: len(o["items"]))["id"])
summary = {"orders": len(orders), "units": sum(totals.values()), "skus": sorted(totals)}
print(json.dumps(summary, indent=1))
