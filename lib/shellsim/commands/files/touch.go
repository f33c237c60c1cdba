package files

import (
	"errors"
	"io/fs"
	"strconv"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"github.com/shellbox/shellbox/lib/shellsim/commands/system"
)

// Touch creates files and sets their modification time.
//
//	touch [-cam] [-d DATE | -t STAMP | -r FILE] FILE...
//
// The simulator keeps only modification times, so -a alone changes no
// time (it still creates missing files).
func Touch(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "camd:t:r:fh",
		Long: []getopt.Long{
			{"date=", "d"}, {"no-create", "c"}, {"no-dereference", "h"}, {"reference=", "r"},
			{"time=", "time"},
		},
		Partial: map[string]bool{"h": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	noCreate, atimeOnly, mtime := false, false, false
	var t time.Time // zero: the filesystem stamps its current time
	for _, o := range opts {
		switch o.Name {
		case "c":
			noCreate = true
		case "a":
			atimeOnly = true
		case "m":
			mtime = true
		case "time":
			switch o.Val {
			case "atime", "access", "use":
				atimeOnly = true
			case "mtime", "modify":
				mtime = true
			default:
				errorf(inv, "invalid argument %s for '--time'", q(o.Val))
				return 1
			}
		case "d":
			pt, err := system.ParseDate(o.Val, inv.Sys.Now())
			if err != nil {
				errorf(inv, "invalid date format %s", q(o.Val))
				return 1
			}
			t = pt
		case "t":
			pt, err := parseStamp(o.Val, inv.Sys.Now())
			if err != nil {
				errorf(inv, "invalid date format %s", q(o.Val))
				return 1
			}
			t = pt
		case "r":
			fi, err := inv.FS.Stat(inv.Abs(o.Val))
			if err != nil {
				errorf(inv, "failed to get attributes of %s: %s", q(o.Val), command.Message(err))
				return 1
			}
			t = fi.ModTime
		}
	}
	if len(operands) == 0 {
		missing(inv, "missing file operand")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	setM := !atimeOnly || mtime
	status := 0
	for _, op := range operands {
		p := inv.Abs(op)
		_, err := inv.FS.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if noCreate {
				continue
			}
			if err := inv.FS.WriteFile(p, nil, 0o666&^umask); err != nil {
				errorf(inv, "cannot touch %s: %s", q(op), command.Message(err))
				status = 1
				continue
			}
		} else if err != nil {
			errorf(inv, "cannot touch %s: %s", q(op), command.Message(err))
			status = 1
			continue
		}
		if setM {
			if err := inv.FS.Chtimes(p, t); err != nil {
				errorf(inv, "setting times of %s: %s", q(op), command.Message(err))
				status = 1
			}
		}
	}
	return status
}

// parseStamp reads touch -t's [[CC]YY]MMDDhhmm[.ss].
func parseStamp(s string, now time.Time) (time.Time, error) {
	bad := errors.New("bad stamp")
	sec := 0
	if i := len(s) - 3; i > 0 && s[i] == '.' {
		v, err := strconv.Atoi(s[i+1:])
		if err != nil || v > 61 {
			return time.Time{}, bad
		}
		sec, s = v, s[:i]
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return time.Time{}, bad
		}
	}
	year := now.UTC().Year()
	switch len(s) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(s[:2])
		if yy < 69 {
			year = 2000 + yy
		} else {
			year = 1900 + yy
		}
		s = s[2:]
	case 12:
		year, _ = strconv.Atoi(s[:4])
		s = s[4:]
	default:
		return time.Time{}, bad
	}
	num := func(i int) int { v, _ := strconv.Atoi(s[i : i+2]); return v }
	mo, d, h, mi := num(0), num(2), num(4), num(6)
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 {
		return time.Time{}, bad
	}
	return time.Date(year, time.Month(mo), d, h, mi, sec, 0, time.UTC), nil
}
