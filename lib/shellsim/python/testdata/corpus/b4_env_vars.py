import os
os.environ["APP_MODE"] = "test"
print(os.environ["APP_MODE"], os.getenv("APP_MODE"), "APP_MODE" in os.environ)
del os.environ["APP_MODE"]
print(os.environ.get("APP_MODE", "unset"))
print(sorted(k for k in ("HOME", "PATH") if k in os.environ))
import subprocess
os.environ["CHILD_SEES"] = "yes"
print(subprocess.run(["sh", "-c", "echo $CHILD_SEES"], capture_output=True, text=True).stdout.strip())
