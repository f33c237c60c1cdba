from enum import Enum, auto, IntEnum
class State(Enum):
    IDLE = auto()
    RUNNING = auto()
    DONE = auto()
    def next(self):
        members = list(State)
        return members[(members.index(self) + 1) % len(members)]
s = State.IDLE
for _ in range(4):
    print(s, s.value)
    s = s.next()
print(State["DONE"].name, {State.IDLE: "i"}[State.IDLE], State.RUNNING in State)
class Level(IntEnum):
    LOW = 1
    HIGH = 3
print(sorted([Level.HIGH, Level.LOW]), Level.LOW < 2, Level(3).name)
