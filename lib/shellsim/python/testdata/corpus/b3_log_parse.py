import re
log = """2024-05-01 10:00:01 INFO start service=api
2024-05-01 10:00:02 WARN slow request id=17 ms=950
2024-05-01 10:00:03 ERROR failed id=18 code=500
2024-05-01 10:00:04 INFO done
2024-05-01 10:00:05 ERROR failed id=19 code=502"""
pat = re.compile(r"^(\S+) (\S+) (\w+) (.*)$")
levels = {}
errors = []
for line in log.splitlines():
    m = pat.match(line)
    if not m:
        continue
    date, time, level, msg = m.groups()
    levels[level] = levels.get(level, 0) + 1
    if level == "ERROR":
        kv = dict(p.split("=") for p in msg.split() if "=" in p)
        errors.append((time, kv["id"], int(kv["code"])))
print(levels)
print(errors)
