import random
def simulate(seed):
    r = random.Random(seed)
    pos = 0
    path = []
    for _ in range(10):
        pos += r.choice([-1, 1])
        path.append(pos)
    return path
print(simulate(1))
print(simulate(1) == simulate(1), simulate(1) != simulate(2))
random.seed(99)
print([round(random.gauss(0, 1), 6) for _ in range(3)])
print(random.choices(range(10), k=5), random.sample(range(1000), 4))
