config = """
# database settings
host = localhost
port = 5432
name = app_db  # inline comment
[cache]
ttl = 300
enabled = true
"""
section = "default"
parsed = {}
for raw in config.splitlines():
    line = raw.split("#", 1)[0].strip()
    if not line:
        continue
    if line.startswith("[") and line.endswith("]"):
        section = line[1:-1]
        continue
    key, _, value = line.partition("=")
    value = value.strip()
    if value.isdigit():
        value = int(value)
    elif value in ("true", "false"):
        value = value == "true"
    parsed.setdefault(section, {})[key.strip()] = value
print(parsed)
