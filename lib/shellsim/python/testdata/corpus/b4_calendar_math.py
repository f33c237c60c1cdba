from datetime import date, timedelta
def month_days(y, m):
    nxt = date(y + (m == 12), m % 12 + 1, 1)
    return (nxt - date(y, m, 1)).days
print([month_days(2024, m) for m in range(1, 13)], [month_days(2023, 2), month_days(2000, 2), month_days(1900, 2)])
d = date(2024, 1, 1)
mondays = [d + timedelta(days=i) for i in range(31) if (d + timedelta(days=i)).weekday() == 0]
print([m.day for m in mondays])
