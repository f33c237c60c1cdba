def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a

print(fib(10), fib(100), fib(300))
print(2 ** 200, -(2 ** 100) // 3, (2 ** 100) % 97)
print(len(str(fib(1000))))
import math
print(math.factorial(30), math.gcd(2**64, 6**20), math.isqrt(10**30 + 7))
print(int("123456789012345678901234567890") * 3)
print(hex(2**70), bin(37), oct(64))
