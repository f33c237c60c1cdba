def parse(s):
    return int(s)
values = ["1", "2", "three"]
total = 0
for v in values:
    total += parse(v)
print(total)
