cat <<A; cat <<B
from A
A
from B
B
