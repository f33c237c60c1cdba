balance = 1000.0
rate = 0.035
for year in range(1, 6):
    interest = round(balance * rate, 2)
    balance = round(balance + interest, 2)
    print(f"year {year}: interest {interest:8.2f} balance {balance:10.2f}")
cents = 100000
for _ in range(5):
    cents += cents * 35 // 1000
print(cents // 100, cents % 100)
