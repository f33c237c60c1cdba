import subprocess
r = subprocess.run(["echo", "hello"], capture_output=True, text=True)
print(r.returncode, repr(r.stdout), repr(r.stderr))
r = subprocess.run("echo a; echo b >&2; exit 3", shell=True, capture_output=True, text=True)
print(r.returncode, repr(r.stdout), repr(r.stderr))
print(subprocess.check_output(["printf", "%s-%s", "x", "y"]))
try:
    subprocess.run(["false"], check=True)
except subprocess.CalledProcessError as e:
    print("failed", e.returncode, e)
r = subprocess.run(["cat"], input="piped text", capture_output=True, text=True)
print(r.stdout)
print(subprocess.call(["true"]), subprocess.getoutput("echo out"))
