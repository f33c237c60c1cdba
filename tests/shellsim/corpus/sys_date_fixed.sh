date -u -d @0
date -u -d @1700000000 '+%Y-%m-%d %H:%M:%S'
date -u -d '2024-02-29' '+%j %A %U'
date -u -d '2024-01-31 +1 month' +%F
date -u -d '2023-12-25 12:30' '+%I:%M %p on %b %d'
date -u -d '2000-01-01T00:00:00Z' +%s
date -u -d '1999-12-31 23:59:59 +1 second' '+%F %T'
