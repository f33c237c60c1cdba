package system

import (
	"testing"
	"time"
)

func TestDate(t *testing.T) {
	all := "+%Y-%m-%d %H:%M:%S %j %a %A %b %B %e %s %u %w %U %W %V %G %C %y %D %F %T %R %r %p %I %l %k %-d %_m %N %z %:z %Z %%"
	runTable(t, []tc{
		{name: "default", args: "date", out: "Wed Jan  1 00:00:00 UTC 2025\n"},
		{name: "rfc", args: "date -R", out: "Wed, 01 Jan 2025 00:00:00 +0000\n"},
		{name: "iso", args: "date -I", out: "2025-01-01\n"},
		{name: "iso-seconds", args: "date -Iseconds", out: "2025-01-01T00:00:00+00:00\n"},
		{name: "iso-long", args: "date --iso-8601=seconds", out: "2025-01-01T00:00:00+00:00\n"},
		{name: "utc", args: "date -u +%H", out: "00\n"},
		{name: "specifiers", argv: []string{"date", all}, out: "2025-01-01 00:00:00 001 Wed Wednesday Jan January  1 1735689600 3 3 00 00 01 2025 20 25 01/01/25 2025-01-01 00:00:00 00:00 12:00:00 AM AM 12 12  0 1  1 000000000 +0000 +00:00 UTC %\n"},
		{name: "epoch", argv: []string{"date", "-d", "@86400", "+%F"}, out: "1970-01-02\n"},
		{name: "leap", argv: []string{"date", "-d", "2024-02-29 +1 day", "+%F"}, out: "2024-03-01\n"},
		{name: "ago", argv: []string{"date", "-d", "2 days ago", "+%F"}, out: "2024-12-30\n"},
		{name: "iso-t", argv: []string{"date", "-d", "2025-03-10T12:30:00Z", "+%s"}, out: "1741609800\n"},
		{name: "yesterday", argv: []string{"date", "-d", "yesterday", "+%F"}, out: "2024-12-31\n"},
		{name: "next-week", argv: []string{"date", "-d", "next week", "+%F"}, out: "2025-01-08\n"},
		{name: "month-name", argv: []string{"date", "-d", "Jan 5 2024", "+%F"}, out: "2024-01-05\n"},
		{name: "month", argv: []string{"date", "-d", "2025-01-01 1 month", "+%F"}, out: "2025-02-01\n"},
		{name: "width", argv: []string{"date", "+%10A"}, out: " Wednesday\n"},
		{name: "no-pad-width", argv: []string{"date", "+%-10B|%q"}, out: "January|1\n"},
		{name: "case", argv: []string{"date", "+%^a %#b"}, out: "WED JAN\n"},
		{name: "zone-quirk", argv: []string{"date", "-d", "1999-12-31 23:59:59 +1 second", "+%F %T"}, out: "1999-12-31 23:00:00\n"},
		{name: "zone-day", argv: []string{"date", "-d", "2024-01-01 10:00 +1 day", "+%F %T"}, out: "2024-01-02 09:00:00\n"},
		{name: "zone-hhmm", argv: []string{"date", "-d", "2024-01-01 10:00:00 -0530", "+%F %T"}, out: "2024-01-01 15:30:00\n"},
		{name: "date-plus-day", argv: []string{"date", "-d", "2024-01-01 +1 day", "+%F %T"}, out: "2024-01-02 00:00:00\n"},
		{name: "spaced-sign", argv: []string{"date", "-d", "2024-02-27 + 2 days", "+%F"}, out: "2024-02-29\n"},
		{name: "bad-zone", argv: []string{"date", "-d", "2024-01-15 00:00:00 + 36 hours"}, err: "date: invalid date '2024-01-15 00:00:00 + 36 hours'\n", status: 1},
		{name: "next-weekday", argv: []string{"date", "-d", "next wednesday", "+%F"}, out: "2025-01-08\n"},
		{name: "weekday", argv: []string{"date", "-d", "friday", "+%F"}, out: "2025-01-03\n"},
		{name: "last-weekday", argv: []string{"date", "-d", "last mon", "+%F"}, out: "2024-12-30\n"},
		{name: "invalid", argv: []string{"date", "-d", "zz"}, err: "date: invalid date 'zz'\n", status: 1},
		{name: "set", argv: []string{"date", "010100002030"}, err: "date: cannot set date: Operation not permitted\n", status: 1},
	})
}

func TestDateFollowsVirtualClock(t *testing.T) {
	e := newEnv(t)
	e.Sys.Clock = 90 * time.Minute
	out, _, _ := e.Run([]string{"date", "+%T"}, "")
	if out != "01:30:00\n" {
		t.Errorf("got %q", out)
	}
}
