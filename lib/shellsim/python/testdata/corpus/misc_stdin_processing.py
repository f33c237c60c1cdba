import sys
lines = [l.rstrip("\n") for l in sys.stdin]
print(len(lines), [l.upper() for l in lines], sum(len(l) for l in lines))
print(sys.stdin.read() == "")
