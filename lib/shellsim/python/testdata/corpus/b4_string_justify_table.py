headers = ["Name", "Qty", "Price"]
rows = [["Apple", 3, 1.5], ["Banana", 12, 0.25], ["Cherry", 100, 10.0]]
widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
line = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
print(line)
print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths)) + " |")
print(line)
for r in rows:
    print("| " + " | ".join(str(v).rjust(w) if isinstance(v, (int, float)) else str(v).ljust(w) for v, w in zip(r, widths)) + " |")
print(line)
