class InsufficientFunds(Exception):
    pass
class Bank:
    def __init__(self):
        self.accounts = {}
        self.log = []
    def open(self, name, amount=0):
        self.accounts[name] = amount
        self.log.append(("open", name, amount))
    def transfer(self, a, b, amt):
        if self.accounts[a] < amt:
            raise InsufficientFunds(f"{a} has {self.accounts[a]}, needs {amt}")
        self.accounts[a] -= amt
        self.accounts[b] += amt
        self.log.append(("transfer", a, b, amt))
bank = Bank()
bank.open("ann", 100)
bank.open("bob")
bank.transfer("ann", "bob", 30)
try:
    bank.transfer("bob", "ann", 50)
except InsufficientFunds as e:
    print("failed:", e)
print(bank.accounts, len(bank.log), bank.log[-1])
