import csv, io
data = "name,age,city\nAlice,30,\"New York, NY\"\nBob,25,Paris\n"
rows = list(csv.reader(io.StringIO(data)))
print(rows)
for r in csv.DictReader(io.StringIO(data)):
    print(r["name"], r["city"])
out = io.StringIO()
w = csv.writer(out)
w.writerow(["a", "b,c", 'd"e', 1, 2.5, None])
w.writerows([[1, 2], [3, 4]])
print(repr(out.getvalue()))
out = io.StringIO()
dw = csv.DictWriter(out, fieldnames=["x", "y"])
dw.writeheader()
dw.writerow({"x": 1, "y": "two"})
print(repr(out.getvalue()))
