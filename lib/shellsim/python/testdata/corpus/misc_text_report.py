sales = [("north", "q1", 120.5), ("south", "q1", 80.0), ("north", "q2", 99.25), ("south", "q2", 130.75), ("east", "q1", 50)]
regions = sorted({r for r, _, _ in sales})
quarters = sorted({q for _, q, _ in sales})
print(f"{'region':<8}" + "".join(f"{q:>10}" for q in quarters) + f"{'total':>10}")
for r in regions:
    row = [sum(v for rr, qq, v in sales if rr == r and qq == q) for q in quarters]
    print(f"{r:<8}" + "".join(f"{v:>10.2f}" for v in row) + f"{sum(row):>10.2f}")
print("-" * 38)
print(f"{'all':<8}" + "".join(f"{sum(v for _, qq, v in sales if qq == q):>10.2f}" for q in quarters) + f"{sum(v for *_, v in sales):>10.2f}")
