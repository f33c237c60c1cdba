import json, os, subprocess, hashlib
os.makedirs("out", exist_ok=True)
with open("out/result.json", "w") as f:
    json.dump({"status": "ok", "count": 3, "items": ["a", "b", "c"]}, f)
def check(cond, msg):
    print(("PASS" if cond else "FAIL") + ": " + msg)
    return cond
data = json.load(open("out/result.json"))
results = [
    check(os.path.exists("out/result.json"), "result file exists"),
    check(data["status"] == "ok", "status ok"),
    check(len(data["items"]) == data["count"], "count matches"),
    check(hashlib.sha256(open("out/result.json", "rb").read()).hexdigest() != "", "hash computed"),
    check(subprocess.run(["test", "-f", "out/result.json"]).returncode == 0, "shell test -f"),
]
print(f"{sum(results)}/{len(results)} checks passed")
