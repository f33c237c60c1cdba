import subprocess, os
out = subprocess.run(["sh", "-c", "echo $GREETING"], capture_output=True, text=True, env={**os.environ, "GREETING": "hey"})
print(out.stdout.strip())
p = subprocess.run(["sh", "-c", "printf 'a\\nb\\n' | wc -l"], stdout=subprocess.PIPE, text=True)
print(p.stdout.strip(), p.returncode)
r = subprocess.run(["ls", "/nonexistent-dir"], capture_output=True, text=True)
print(r.returncode != 0, "No such file" in r.stderr)
try:
    subprocess.run(["no-such-program-xyz"])
except FileNotFoundError as e:
    print("FileNotFoundError")
print(subprocess.run("exit 7", shell=True).returncode)
