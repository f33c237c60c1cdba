from dataclasses import dataclass, field
from typing import List
@dataclass
class Node:
    value: int
    children: List["Node"] = field(default_factory=list)
    def add(self, v):
        n = Node(v)
        self.children.append(n)
        return n
    def total(self):
        return self.value + sum(c.total() for c in self.children)
root = Node(1)
a = root.add(2)
a.add(3)
root.add(4)
print(root.total(), root)
@dataclass
class Config:
    name: str
    retries: int = 3
    def __post_init__(self):
        self.name = self.name.upper()
print(Config("x"), Config("y", retries=0))
