from datetime import date, timedelta, datetime
start = date(2024, 1, 30)
for i in range(4):
    print(start + timedelta(days=i * 15))
d1, d2 = date(2024, 3, 1), date(2023, 3, 1)
print((d1 - d2).days, d1.isoweekday(), d1.strftime("%A %d %B %Y"))
dt = datetime(2024, 2, 29, 23, 59, 59)
print(dt + timedelta(seconds=1), dt.replace(year=2028), (dt - timedelta(days=366)).date())
print(sorted([date(2020, 1, 1), date(2019, 5, 5), date(2021, 1, 1)]))
print(datetime.strptime("03/04/2025 14:05", "%d/%m/%Y %H:%M").isoformat())
