from datetime import datetime, timedelta, date, timezone
d = datetime(2024, 12, 31, 23, 0)
print(d + timedelta(hours=2), (d + timedelta(hours=2)).year, d.weekday(), d.isocalendar()[:2])
print(timedelta(days=1, hours=3) * 2, timedelta(weeks=1) // timedelta(days=2), abs(timedelta(hours=-5)))
print(date(2024, 2, 29) + timedelta(days=365), date.fromisoformat("2020-05-17").strftime("%d.%m.%y"))
utc = datetime(2024, 1, 1, 12, tzinfo=timezone.utc)
print(utc.isoformat(), utc.astimezone(timezone(timedelta(hours=2))).isoformat(), utc.strftime("%Y %Z %z"))
print(datetime(2024, 1, 1) < datetime(2024, 1, 1, 0, 0, 1), str(timedelta(microseconds=1500)))
