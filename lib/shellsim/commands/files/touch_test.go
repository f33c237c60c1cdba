package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestTouch(t *testing.T) {
	runTable(t, []tc{
		{name: "create", args: "touch a", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"a": true}) }},
		{name: "no-create", args: "touch -c a", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"a": false}) }},
		{name: "missing-dir", args: "touch nodir/x", err: "touch: cannot touch 'nodir/x': No such file or directory\n", status: 1},
		{name: "date", args: "touch -d 2020-02-03 a", check: func(t *testing.T, e *commandtest.Env) {
			fi, _ := e.FS.Stat("/work/a")
			if got := fi.ModTime.Format("2006-01-02 15:04"); got != "2020-02-03 00:00" {
				t.Errorf("mtime %s", got)
			}
		}},
		{name: "stamp", args: "touch -t 202001021304.05 a", check: func(t *testing.T, e *commandtest.Env) {
			fi, _ := e.FS.Stat("/work/a")
			if got := fi.ModTime.Format("2006-01-02 15:04:05"); got != "2020-01-02 13:04:05" {
				t.Errorf("mtime %s", got)
			}
		}},
		{name: "bad-date", args: "touch -d yesterdayish a", err: "touch: invalid date format 'yesterdayish'\n", status: 1},
	})
}
