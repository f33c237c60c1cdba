with open("nums.txt", "w") as f:
    for i in range(1, 11):
        f.write(f"{i}\n")
with open("nums.txt") as f:
    nums = [int(line) for line in f if line.strip()]
print(sum(nums), sum(n for n in nums if n % 2 == 0), nums[-3:])
with open("nums.txt") as f:
    lines = f.read().splitlines()
print(len(lines), lines[0], lines[-1])
with open("out.txt", "w") as f:
    f.writelines(f"{n * n}\n" for n in nums[:3])
print(open("out.txt").read().split())
