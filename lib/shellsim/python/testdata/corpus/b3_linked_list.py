class Node:
    def __init__(self, v, nxt=None):
        self.v, self.next = v, nxt
class LinkedList:
    def __init__(self, items=()):
        self.head = None
        for x in reversed(list(items)):
            self.head = Node(x, self.head)
    def __iter__(self):
        n = self.head
        while n:
            yield n.v
            n = n.next
    def reverse(self):
        prev, cur = None, self.head
        while cur:
            cur.next, prev, cur = prev, cur, cur.next
        self.head = prev
    def __len__(self):
        return sum(1 for _ in self)
ll = LinkedList([1, 2, 3, 4])
print(list(ll), len(ll))
ll.reverse()
print(list(ll))
