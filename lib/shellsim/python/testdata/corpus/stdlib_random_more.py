import random
random.seed(2024)
print([random.randint(1, 6) for _ in range(10)])
print(random.sample(["a", "b", "c", "d", "e"], 3))
deck = [f"{r}{s}" for r in "A23" for s in "HS"]
random.shuffle(deck)
print(deck)
print(round(random.random(), 10), random.choice(range(100)), random.randrange(10, 20, 3))
rng = random.Random(7)
print([round(rng.uniform(0, 1), 6) for _ in range(3)], rng.getrandbits(40))
