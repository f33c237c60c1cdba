package system

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Date prints the virtual clock's time in UTC.
//
//	date [-uR] [-I[FMT]] [-d STRING] [-r FILE] [+FORMAT]
//
// The simulator's zone is always UTC; -d understands @EPOCH, now, today,
// yesterday, tomorrow, ISO dates and times, and relative offsets such as
// "2 days ago" or "+3 hours". Setting the clock is not modelled.
func Date(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "ud:r:RI::s:f:",
		Long: []getopt.Long{
			{"date=", "d"}, {"debug", "debug"}, {"file=", "f"}, {"iso-8601", "I"},
			{"iso-8601=", "I"}, {"reference=", "r"}, {"rfc-3339=", "rfc3339"}, {"rfc-email", "R"},
			{"set=", "s"}, {"universal", "u"}, {"utc", "u"},
		},
		Partial: map[string]bool{"s": true, "f": true, "debug": true},
		Help:    true,
	}
	// -I takes an optional attached argument: rewrite -Ifmt before parsing.
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	t := inv.Sys.Now().UTC()
	format := "%a %b %e %H:%M:%S %Z %Y"
	dateArg, hasDate := "", false
	for _, o := range opts {
		switch o.Name {
		case "d":
			dateArg, hasDate = o.Val, true // the last -d wins
		case "r":
			fi, err := inv.FS.Stat(inv.Abs(o.Val))
			if err != nil {
				errorf(inv, "%s: %s", o.Val, command.Message(err))
				return 1
			}
			t = fi.ModTime.UTC()
		case "R":
			format = "%a, %d %b %Y %H:%M:%S %z"
		case "I":
			switch o.Val {
			case "", "date", "d":
				format = "%Y-%m-%d"
			case "hours", "h":
				format = "%Y-%m-%dT%H%:z"
			case "minutes", "m":
				format = "%Y-%m-%dT%H:%M%:z"
			case "seconds", "s":
				format = "%Y-%m-%dT%H:%M:%S%:z"
			case "ns":
				format = "%Y-%m-%dT%H:%M:%S,%N%:z"
			default:
				errorf(inv, "invalid argument %s for '--iso-8601'", q(o.Val))
				fmt.Fprintf(inv.Stderr, "Valid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'\n")
				fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
				return 1
			}
		case "rfc3339":
			switch o.Val {
			case "date":
				format = "%Y-%m-%d"
			case "seconds":
				format = "%Y-%m-%d %H:%M:%S%:z"
			case "ns":
				format = "%Y-%m-%d %H:%M:%S.%N%:z"
			default:
				errorf(inv, "invalid argument %s for '--rfc-3339'", q(o.Val))
				return 1
			}
		}
	}
	if hasDate {
		pt, err := ParseDate(dateArg, inv.Sys.Now())
		if err != nil {
			errorf(inv, "invalid date %s", q(dateArg))
			return 1
		}
		t = pt
	}
	for i, op := range operands {
		if strings.HasPrefix(op, "+") && i == 0 {
			format = op[1:]
			continue
		}
		if i == 0 {
			inv.Sys.Partial("date MMDDhhmm")
			errorf(inv, "cannot set date: Operation not permitted")
			return 1
		}
		errorf(inv, "extra operand %s", q(op))
		fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
		return 1
	}
	w := bufio.NewWriter(inv.Stdout)
	w.WriteString(Strftime(format, t) + "\n")
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

// Strftime formats t as GNU date does for the C locale, including the
// padding flags -, _, 0, ^ and # and a field width. Hand-written: the Go
// strftime packages lack GNU's flags, widths and %:z forms.
func Strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		pad := byte(0)
		upper, swap := false, false
		for i < len(format) && strings.IndexByte("-_0^#", format[i]) >= 0 {
			switch format[i] {
			case '^':
				upper = true
			case '#':
				swap = true
			default:
				pad = format[i]
			}
			i++
		}
		width := 0
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			width = width*10 + int(format[i]-'0')
			i++
		}
		colons := 0
		for i < len(format) && format[i] == ':' {
			colons++
			i++
		}
		if i >= len(format) {
			b.WriteString(format[strings.LastIndexByte(format[:i], '%'):])
			break
		}
		c = format[i]
		num := func(v, w int, def byte) string {
			p := def
			if pad != 0 {
				p = pad
			}
			if width > 0 {
				w = width
			}
			s := strconv.Itoa(v)
			switch p {
			case '-':
				return s
			case '_':
				return fmt.Sprintf("%*s", w, s)
			}
			return fmt.Sprintf("%0*s", w, s)
		}
		text := func(s string) string {
			if upper {
				s = strings.ToUpper(s)
			}
			if swap {
				if strings.ToUpper(s) == s {
					s = strings.ToLower(s)
				} else {
					s = strings.ToUpper(s)
				}
			}
			if width > len(s) && pad != '-' {
				p := " "
				if pad == '0' {
					p = "0"
				}
				s = strings.Repeat(p, width-len(s)) + s
			}
			return s
		}
		hour12 := t.Hour() % 12
		if hour12 == 0 {
			hour12 = 12
		}
		year, week := t.ISOWeek()
		switch c {
		case '%':
			b.WriteByte('%')
		case 'a':
			b.WriteString(text(t.Format("Mon")))
		case 'A':
			b.WriteString(text(t.Format("Monday")))
		case 'b', 'h':
			b.WriteString(text(t.Format("Jan")))
		case 'B':
			b.WriteString(text(t.Format("January")))
		case 'c':
			b.WriteString(text(Strftime("%a %b %e %H:%M:%S %Y", t)))
		case 'C':
			b.WriteString(num(t.Year()/100, 2, '0'))
		case 'd':
			b.WriteString(num(t.Day(), 2, '0'))
		case 'D':
			b.WriteString(text(Strftime("%m/%d/%y", t)))
		case 'e':
			b.WriteString(num(t.Day(), 2, '_'))
		case 'F':
			b.WriteString(text(Strftime("%Y-%m-%d", t)))
		case 'g':
			b.WriteString(num(year%100, 2, '0'))
		case 'G':
			b.WriteString(num(year, 4, '0'))
		case 'H':
			b.WriteString(num(t.Hour(), 2, '0'))
		case 'I':
			b.WriteString(num(hour12, 2, '0'))
		case 'j':
			b.WriteString(num(t.YearDay(), 3, '0'))
		case 'k':
			b.WriteString(num(t.Hour(), 2, '_'))
		case 'l':
			b.WriteString(num(hour12, 2, '_'))
		case 'm':
			b.WriteString(num(int(t.Month()), 2, '0'))
		case 'M':
			b.WriteString(num(t.Minute(), 2, '0'))
		case 'n':
			b.WriteByte('\n')
		case 'N':
			ns := fmt.Sprintf("%09d", t.Nanosecond())
			if width > 0 && width < 9 {
				ns = ns[:width]
			}
			b.WriteString(ns)
		case 'p':
			s := "AM"
			if t.Hour() >= 12 {
				s = "PM"
			}
			if swap {
				s = strings.ToLower(s)
			}
			b.WriteString(s)
		case 'P':
			s := "am"
			if t.Hour() >= 12 {
				s = "pm"
			}
			b.WriteString(s)
		case 'q':
			b.WriteString(num((int(t.Month())-1)/3+1, 1, '0'))
		case 'r':
			b.WriteString(Strftime("%I:%M:%S %p", t))
		case 'R':
			b.WriteString(Strftime("%H:%M", t))
		case 's':
			b.WriteString(num(int(t.Unix()), 1, '0'))
		case 'S':
			b.WriteString(num(t.Second(), 2, '0'))
		case 't':
			b.WriteByte('\t')
		case 'T':
			b.WriteString(Strftime("%H:%M:%S", t))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			b.WriteString(num(wd, 1, '0'))
		case 'U':
			b.WriteString(num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0'))
		case 'V':
			b.WriteString(num(week, 2, '0'))
		case 'w':
			b.WriteString(num(int(t.Weekday()), 1, '0'))
		case 'W':
			b.WriteString(num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0'))
		case 'x':
			b.WriteString(Strftime("%m/%d/%y", t))
		case 'X':
			b.WriteString(Strftime("%H:%M:%S", t))
		case 'y':
			b.WriteString(num(t.Year()%100, 2, '0'))
		case 'Y':
			b.WriteString(num(t.Year(), 1, '0'))
		case 'z':
			switch colons {
			case 0:
				b.WriteString("+0000")
			case 1:
				b.WriteString("+00:00")
			case 2:
				b.WriteString("+00:00:00")
			default:
				b.WriteString("+00")
			}
		case 'Z':
			b.WriteString(text("UTC"))
		default:
			b.WriteString(format[strings.LastIndexByte(format[:i], '%') : i+1])
		}
	}
	return b.String()
}

var monthNames = map[string]time.Month{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
	"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}

// ParseDate understands the date strings agents commonly pass to
// date -d and touch -d: @EPOCH, now, today, yesterday, tomorrow,
// YYYY-MM-DD[ HH:MM[:SS]] (also with T and Z), "Jan 2 2025", and relative
// items such as "2 days ago", "+3 hours" or "next week", alone or after a
// date. Every time is UTC. Hand-written: general date-parsing libraries
// accept different inputs than GNU's parse_datetime (e.g. "10:00 +1 day"
// is a zone offset there), and matching GNU is the point.
func ParseDate(s string, now time.Time) (time.Time, error) {
	bad := fmt.Errorf("invalid date %q", s)
	now = now.UTC()
	str := strings.TrimSpace(strings.ToLower(s))
	if str == "" {
		return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), nil
	}
	if strings.HasPrefix(str, "@") {
		f, err := strconv.ParseFloat(str[1:], 64)
		if err != nil {
			return time.Time{}, bad
		}
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC(), nil
	}
	toks := strings.Fields(strings.ReplaceAll(str, ",", " "))
	t := now
	dateSet, timeSet := false, false
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		switch tok {
		case "now":
			continue
		case "today":
			continue
		case "yesterday":
			t = t.AddDate(0, 0, -1)
			continue
		case "tomorrow":
			t = t.AddDate(0, 0, 1)
			continue
		case "utc", "z", "gmt", "+0000", "+00:00":
			continue
		case "midnight":
			t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
			timeSet = true
			continue
		case "noon":
			t = time.Date(t.Year(), t.Month(), t.Day(), 12, 0, 0, 0, time.UTC)
			timeSet = true
			continue
		}
		// ISO date, optionally with a T time.
		if len(tok) >= 8 && tok[4] == '-' {
			datePart, timePart, hasT := strings.Cut(tok, "t")
			d, err := time.Parse("2006-01-02", datePart)
			if err != nil {
				return time.Time{}, bad
			}
			t = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
			dateSet = true
			if hasT {
				nt, err := applyClock(t, strings.TrimSuffix(timePart, "z"))
				if err != nil {
					return time.Time{}, bad
				}
				t, timeSet = nt, true
			}
			continue
		}
		if len(tok) == 8 && isDigits(tok) {
			d, err := time.Parse("20060102", tok)
			if err != nil {
				return time.Time{}, bad
			}
			t, dateSet = d, true
			continue
		}
		if strings.Count(tok, "/") == 2 {
			d, err := time.Parse("1/2/2006", tok)
			if err != nil {
				return time.Time{}, bad
			}
			t, dateSet = d, true
			continue
		}
		if strings.Contains(tok, ":") {
			nt, err := applyClock(t, tok)
			if err != nil {
				return time.Time{}, bad
			}
			t, timeSet = nt, true
			if i+1 < len(toks) && (toks[i+1] == "am" || toks[i+1] == "pm") {
				if toks[i+1] == "pm" && t.Hour() < 12 {
					t = t.Add(12 * time.Hour)
				} else if toks[i+1] == "am" && t.Hour() == 12 {
					t = t.Add(-12 * time.Hour)
				}
				i++
			}
			// As in GNU, a signed number right after a time of day is a
			// zone offset ("10:00 +1 day" is 10:00 at UTC+1, plus a day).
			cand, used := "", 0
			if i+2 < len(toks) && (toks[i+1] == "+" || toks[i+1] == "-") && isDigits(toks[i+2]) {
				cand, used = toks[i+1]+toks[i+2], 2
			} else if i+1 < len(toks) && len(toks[i+1]) > 1 && (toks[i+1][0] == '+' || toks[i+1][0] == '-') && isDigits(strings.ReplaceAll(toks[i+1][1:], ":", "")) {
				cand, used = toks[i+1], 1
			}
			if used > 0 {
				off, ok := zoneOffset(cand)
				if !ok {
					return time.Time{}, bad
				}
				t = t.Add(-off)
				i += used
			}
			continue
		}
		if m, ok := monthNames[prefix3(tok)]; ok {
			// "Jan 2 [2025]" or "2 Jan [2025]"
			day, year := t.Day(), t.Year()
			if i+1 < len(toks) && isDigits(toks[i+1]) {
				day, _ = strconv.Atoi(toks[i+1])
				i++
			}
			if i+1 < len(toks) && isDigits(toks[i+1]) && len(toks[i+1]) == 4 {
				year, _ = strconv.Atoi(toks[i+1])
				i++
			}
			t = time.Date(year, m, day, 0, 0, 0, 0, time.UTC)
			dateSet = true
			continue
		}
		// A sign may stand apart from its number: "+ 2 days".
		if (tok == "+" || tok == "-") && i+1 < len(toks) && isDigits(toks[i+1]) {
			toks[i+1] = tok + toks[i+1]
			continue
		}
		if wd, ok := weekday(tok); ok {
			t = nextWeekday(t, wd, 0)
			dateSet = true
			continue
		}
		if (tok == "next" || tok == "last" || tok == "this") && i+1 < len(toks) {
			if wd, ok := weekday(toks[i+1]); ok {
				t = nextWeekday(t, wd, map[string]int{"next": 1, "last": -1, "this": 0}[tok])
				dateSet = true
				i++
				continue
			}
		}
		// Relative items: [+-]N unit [ago], or "next/last unit", or a bare unit.
		n := 1
		unitIdx := i
		if v, err := strconv.Atoi(tok); err == nil {
			if i+1 >= len(toks) {
				return time.Time{}, bad
			}
			if _, ok := monthNames[prefix3(toks[i+1])]; ok && isMonthWord(toks[i+1]) {
				day := v
				m := monthNames[prefix3(toks[i+1])]
				year := t.Year()
				i++
				if i+1 < len(toks) && isDigits(toks[i+1]) && len(toks[i+1]) == 4 {
					year, _ = strconv.Atoi(toks[i+1])
					i++
				}
				t = time.Date(year, m, day, 0, 0, 0, 0, time.UTC)
				dateSet = true
				continue
			}
			n = v
			unitIdx = i + 1
		} else if tok == "next" || tok == "last" || tok == "this" {
			if i+1 >= len(toks) {
				return time.Time{}, bad
			}
			switch tok {
			case "last":
				n = -1
			case "this":
				n = 0
			}
			unitIdx = i + 1
		}
		unit := toks[unitIdx]
		i = unitIdx
		if i+1 < len(toks) && toks[i+1] == "ago" {
			n = -n
			i++
		}
		switch strings.TrimSuffix(unit, "s") {
		case "sec", "second":
			t = t.Add(time.Duration(n) * time.Second)
		case "min", "minute":
			t = t.Add(time.Duration(n) * time.Minute)
		case "hour":
			t = t.Add(time.Duration(n) * time.Hour)
		case "day":
			t = t.AddDate(0, 0, n)
		case "week":
			t = t.AddDate(0, 0, 7*n)
		case "fortnight":
			t = t.AddDate(0, 0, 14*n)
		case "month":
			t = t.AddDate(0, n, 0)
		case "year":
			t = t.AddDate(n, 0, 0)
		default:
			return time.Time{}, bad
		}
	}
	if dateSet && !timeSet {
		t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	if (str == "today" || str == "yesterday" || str == "tomorrow") && !timeSet {
		return t, nil
	}
	return t, nil
}

var weekdays = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// weekday recognises a day name or its three-letter abbreviation.
func weekday(s string) (time.Weekday, bool) {
	for i, d := range weekdays {
		if s == d || s == d[:3] || s == d[:3]+"." {
			return time.Weekday(i), true
		}
	}
	return 0, false
}

// nextWeekday moves t to midnight of weekday wd: the same or coming one
// (ord 0), the coming one never today (ord 1), or the previous one (ord -1).
func nextWeekday(t time.Time, wd time.Weekday, ord int) time.Time {
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	delta := (int(wd) - int(t.Weekday()) + 7) % 7
	switch ord {
	case 1:
		if delta == 0 {
			delta = 7
		}
	case -1:
		delta = -((int(t.Weekday()) - int(wd) + 7) % 7)
		if delta == 0 {
			delta = -7
		}
	}
	return t.AddDate(0, 0, delta)
}

// zoneOffset reads a numeric zone: +h, +hh, +hhmm or +hh:mm (or -).
func zoneOffset(s string) (time.Duration, bool) {
	if len(s) < 2 || s[0] != '+' && s[0] != '-' {
		return 0, false
	}
	body := strings.ReplaceAll(s[1:], ":", "")
	if !isDigits(body) || len(body) > 4 {
		return 0, false
	}
	var h, m int
	if len(body) <= 2 {
		h, _ = strconv.Atoi(body)
	} else {
		h, _ = strconv.Atoi(body[:len(body)-2])
		m, _ = strconv.Atoi(body[len(body)-2:])
	}
	if h > 24 || m > 59 {
		return 0, false
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute
	if s[0] == '-' {
		d = -d
	}
	return d, true
}

func isMonthWord(s string) bool {
	for k := range monthNames {
		if strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

func prefix3(s string) string {
	if len(s) < 3 {
		return s
	}
	return s[:3]
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// applyClock sets HH:MM[:SS[.frac]] on t's date.
func applyClock(t time.Time, s string) (time.Time, error) {
	if i := strings.IndexAny(s, "+-"); i > 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return t, fmt.Errorf("bad time")
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	var sec float64
	var err3 error
	if len(parts) == 3 {
		sec, err3 = strconv.ParseFloat(strings.ReplaceAll(parts[2], ",", "."), 64)
	}
	if err1 != nil || err2 != nil || err3 != nil || h > 24 || m > 59 || sec >= 61 {
		return t, fmt.Errorf("bad time")
	}
	return time.Date(t.Year(), t.Month(), t.Day(), h, m, int(sec), int((sec-float64(int(sec)))*1e9), time.UTC), nil
}
