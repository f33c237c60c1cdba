from enum import Enum, IntEnum, auto
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
print(Color.RED, repr(Color.GREEN), Color(3), Color["RED"], Color.RED.name, Color.RED.value)
print(list(Color), len(Color), Color.RED in Color, Color.RED is Color(1), Color.RED == Color.GREEN)
class Prio(IntEnum):
    LOW = auto()
    HIGH = auto()
print(Prio.LOW, Prio.HIGH + 1, Prio.HIGH > Prio.LOW, int(Prio.HIGH), [p.name for p in Prio])
try:
    Color(9)
except ValueError as e:
    print(e)
