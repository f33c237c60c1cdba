import sys
nums = [int(a) for a in sys.argv[1:] if a.isdigit()]
words = [a for a in sys.argv[1:] if not a.isdigit()]
print(sum(nums), words)
data = sys.stdin.readline()
rest = sys.stdin.readlines()
print(repr(data), len(rest))
