from typing import List, Dict, Optional, Union, Callable, Any, TypeVar, Generic
from abc import ABC, abstractmethod
T = TypeVar("T")
def first(xs: List[T]) -> Optional[T]:
    return xs[0] if xs else None
print(first([1, 2]), first([]))
class Stack(Generic[T]):
    def __init__(self) -> None:
        self.items: List[T] = []
    def push(self, x: T) -> None:
        self.items.append(x)
s: Stack[int] = Stack()
s.push(3)
print(s.items)
class Base(ABC):
    @abstractmethod
    def run(self) -> str: ...
class Impl(Base):
    def run(self) -> str:
        return "ran"
print(Impl().run())
try:
    Base()
except TypeError as e:
    print("TypeError:", e)
def apply(f: Callable[[int], int], x: Union[int, float]) -> Any:
    return f(x)
print(apply(lambda v: v + 1, 1))
