import sys
print(sys.argv[1:])
data = sys.stdin.read()
print(len(data.splitlines()), data.split())
print(sys.version_info[0], sys.platform, sys.maxsize > 2**31)
