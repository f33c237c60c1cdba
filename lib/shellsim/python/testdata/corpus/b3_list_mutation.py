a = [1, 2, 3]
b = a
b.append(4)
c = a[:]
c.append(5)
print(a, b, c, a is b, a is c, a == b)
m = [[0] * 2] * 2
m[0][0] = 9
print(m)
n = [[0] * 2 for _ in range(2)]
n[0][0] = 9
print(n)
nums = list(range(10))
del nums[2:5]
nums[::3] = ["x"] * len(nums[::3])
print(nums)
nums.clear()
print(nums, len(nums))
