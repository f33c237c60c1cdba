import json, os
data = {"users": [{"name": "a", "age": 1}, {"name": "b", "age": 2}], "ok": True}
with open("data.json", "w") as f:
    json.dump(data, f, indent=4)
with open("data.json") as f:
    text = f.read()
print(text)
with open("data.json") as f:
    back = json.load(f)
print(back == data, [u["name"] for u in back["users"]])
os.remove("data.json")
lines = [json.dumps({"i": i}) for i in range(3)]
print("\n".join(lines))
print([json.loads(l)["i"] for l in lines])
