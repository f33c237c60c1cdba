from typing import Optional, Union, List, Dict, Any, Callable
def f(x: int, y: Optional[str] = None) -> List[int]:
    return [x] * (len(y) if y else 1)
print(f(3), f(2, "ab"), f.__name__)
Handler = Callable[[str], None]
def apply(h: Handler, v: str) -> None:
    h(v)
apply(print, "called")
x: Dict[str, Any] = {"a": 1}
y: Union[int, str] = "s"
print(x, y, __annotations__ if "__annotations__" in dir() else {})
