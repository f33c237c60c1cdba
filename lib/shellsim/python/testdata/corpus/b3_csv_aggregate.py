import csv, io
from collections import defaultdict
raw = """date,product,qty,price
2024-01-01,widget,3,2.50
2024-01-01,gadget,1,10.00
2024-01-02,widget,5,2.50
2024-01-03,gizmo,2,7.25
"""
totals = defaultdict(float)
for row in csv.DictReader(io.StringIO(raw)):
    totals[row["product"]] += int(row["qty"]) * float(row["price"])
for p, t in sorted(totals.items()):
    print(f"{p},{t:.2f}")
out = io.StringIO()
w = csv.writer(out, lineterminator="\n")
w.writerow(["product", "total"])
for p in sorted(totals):
    w.writerow([p, f"{totals[p]:.2f}"])
print(out.getvalue(), end="")
