from enum import Enum
class Perm(Enum):
    READ = 4
    WRITE = 2
    EXEC = 1
def mode_str(bits):
    return "".join(p.name[0].lower() if bits & p.value else "-" for p in Perm)
for bits in (7, 6, 5, 0, 4):
    print(bits, mode_str(bits))
print([p.name for p in Perm if p.value > 1], Perm(2), Perm.READ.value | Perm.EXEC.value)
