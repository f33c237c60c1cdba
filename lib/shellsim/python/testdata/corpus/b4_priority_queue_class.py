import heapq
class PQ:
    def __init__(self):
        self._h = []
        self._n = 0
    def push(self, item, prio):
        heapq.heappush(self._h, (prio, self._n, item))
        self._n += 1
    def pop(self):
        return heapq.heappop(self._h)[2]
    def __len__(self):
        return len(self._h)
q = PQ()
for item, p in [("low", 5), ("high", 1), ("mid", 3), ("high2", 1)]:
    q.push(item, p)
print([q.pop() for _ in range(len(q))])
