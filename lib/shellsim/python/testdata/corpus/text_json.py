import json
doc = {"name": "test", "values": [1, 2.5, None, True, False], "nested": {"b": [], "a": {}}, "uni": "héllo ☃"}
print(json.dumps(doc))
print(json.dumps(doc, sort_keys=True, indent=2))
print(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
print(json.loads('{"a": [1, 2, {"b": null}], "c": 1.5e3, "d": "\\u00e9"}'))
try:
    json.loads('{"a": 1,}')
except json.JSONDecodeError as e:
    print("error:", e)
try:
    json.dumps({1, 2})
except TypeError as e:
    print("type error:", e)
print(json.dumps([float("inf")]), json.dumps("a\nb\t\"q\""), json.dumps({1: 2, True: 3}))
