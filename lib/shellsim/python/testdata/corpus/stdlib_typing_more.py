from typing import NamedTuple, Optional, Dict, Tuple, Iterator
class Emp(NamedTuple):
    name: str
    dept: str = "eng"
e = Emp("ann")
print(e, e.name, e._asdict() if hasattr(e, "_asdict") else None)
def pairs(d: Dict[str, int]) -> Iterator[Tuple[str, int]]:
    yield from sorted(d.items())
print(list(pairs({"b": 2, "a": 1})))
def maybe(x: Optional[int] = None) -> str:
    return "none" if x is None else str(x)
print(maybe(), maybe(3))
