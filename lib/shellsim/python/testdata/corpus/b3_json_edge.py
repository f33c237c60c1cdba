import json
print(json.dumps(None), json.dumps(True), json.dumps(1.0), json.dumps(10**20), json.dumps(-0.0), json.dumps(1e-7))
print(json.dumps({"a": [], "b": {}}, indent=0))
print(json.dumps([1, [2, [3]]], indent="\t"))
print(json.loads("[1e2, -0, 0.5, true, null]"), json.loads('"\\ud83d\\ude00"'), json.loads(" {} "))
for bad in ["[1,]", "{'a': 1}", "nul", "[1 2]", "", '"unterminated']:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(repr(bad), "->", e.msg, e.pos)
print(json.dumps({"z": 1, "a": {"y": 2, "b": 3}}, sort_keys=True, separators=(",", ":")))
print(json.loads('{"a": 1, "a": 2}'), json.dumps("é", ensure_ascii=True), json.dumps(["x"], separators=(",", ": ")))
