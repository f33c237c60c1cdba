import sys
print("start")
sys.stderr.write("to stderr\n")
try:
    sys.exit(3)
except SystemExit as e:
    print("exit code", e.code)
sys.exit("fatal: message")
