import heapq
h = []
for x in [5, 3, 8, 1, 9, 2]:
    heapq.heappush(h, x)
print(h, heapq.heappop(h), heapq.heappop(h), h)
data = [7, 2, 9, 4, 1]
heapq.heapify(data)
print(data, heapq.nsmallest(2, [7, 2, 9, 4, 1]), heapq.nlargest(2, [7, 2, 9, 4, 1]))
print(heapq.heappushpop(data, 0), heapq.heapreplace(data, 10), sorted(data))
tasks = [(2, "write"), (1, "read"), (3, "exec")]
heapq.heapify(tasks)
print([heapq.heappop(tasks)[1] for _ in range(3)])
