import time
t0 = time.monotonic()
time.sleep(0.25)
elapsed = time.monotonic() - t0
print(elapsed >= 0.25, elapsed < 5)
print(type(time.time()).__name__, time.strftime("%Y", time.gmtime(0)))
print(time.gmtime(86400 * 365).tm_year, time.localtime(0).tm_yday)
