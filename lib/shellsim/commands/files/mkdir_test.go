package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestMkdir(t *testing.T) {
	runTable(t, []tc{
		{name: "verbose", files: []string{"x/"}, args: "mkdir -v x/y", out: "mkdir: created directory 'x/y'\n"},
		{name: "parents", args: "mkdir -pv p/q/r", out: "mkdir: created directory 'p'\nmkdir: created directory 'p/q'\nmkdir: created directory 'p/q/r'\n"},
		{name: "parents-exists", files: []string{"p/q/"}, args: "mkdir -p p/q"},
		{name: "exists", files: []string{"a/"}, args: "mkdir a", err: "mkdir: cannot create directory 'a': File exists\n", status: 1},
		{name: "parent-missing", args: "mkdir a/b", err: "mkdir: cannot create directory 'a/b': No such file or directory\n", status: 1},
		{name: "p-over-file", files: []string{"f="}, args: "mkdir -p f/g", err: "mkdir: cannot create directory 'f': Not a directory\n", status: 1},
		{name: "mode", args: "mkdir -m 700 m", check: func(t *testing.T, e *commandtest.Env) {
			fi, _ := e.FS.Stat("/work/m")
			if fi.Mode.Perm() != 0o700 {
				t.Errorf("mode %v", fi.Mode)
			}
		}},
		{name: "no-operand", args: "mkdir", err: "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", status: 1},
	})
}
