class Account:
    bank = "PyBank"
    count = 0

    def __init__(self, owner, balance=0):
        self.owner = owner
        self._balance = balance
        Account.count += 1

    @property
    def balance(self):
        return self._balance

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        self._balance += amount
        return self

    def __repr__(self):
        return f"Account({self.owner!r}, {self._balance})"

    def __eq__(self, other):
        return isinstance(other, Account) and self.owner == other.owner

    def __lt__(self, other):
        return self._balance < other._balance

    @classmethod
    def from_string(cls, s):
        name, bal = s.split(":")
        return cls(name, int(bal))

    @staticmethod
    def validate(n):
        return n >= 0

a = Account("ann", 10).deposit(5).deposit(1)
b = Account.from_string("bob:3")
print(a, b, a.balance, Account.count, a.bank, Account.validate(-1))
print(sorted([a, b]), a == Account("ann"), a != b, max(a, b))
try:
    a.deposit(-1)
except ValueError as e:
    print("error", e)
try:
    a.balance = 4
except AttributeError as e:
    print("attr error")
print(hasattr(a, "owner"), getattr(a, "missing", "default"), type(a).__name__, isinstance(a, Account))
