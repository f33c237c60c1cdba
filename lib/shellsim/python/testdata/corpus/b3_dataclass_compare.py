from dataclasses import dataclass, field
@dataclass(order=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0
    label: str = field(default="", compare=False)
    @classmethod
    def parse(cls, s):
        return cls(*map(int, s.split(".")))
vs = [Version.parse(s) for s in ["1.2.3", "1.10.0", "1.2.10", "0.9.9"]]
print(sorted(vs))
print(max(vs), Version(1, 2, 3) == Version(1, 2, 3, "rc"), Version(2) > Version(1, 99))
