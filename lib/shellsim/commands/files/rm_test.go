package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestRm(t *testing.T) {
	tree := []string{"d/x=", "d/s/y="}
	runTable(t, []tc{
		{name: "file", files: []string{"a="}, args: "rm a", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"a": false}) }},
		{name: "dir-no-r", files: tree, args: "rm d", err: "rm: cannot remove 'd': Is a directory\n", status: 1},
		{name: "dir-d-nonempty", files: tree, args: "rm -d d", err: "rm: cannot remove 'd': Directory not empty\n", status: 1},
		{name: "dir-d-empty", files: []string{"e/"}, args: "rm -dv e", out: "removed directory 'e'\n"},
		{name: "recursive-verbose", files: tree, args: "rm -rv d", out: "removed 'd/s/y'\nremoved directory 'd/s'\nremoved 'd/x'\nremoved directory 'd'\n",
			check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"d": false}) }},
		{name: "missing", args: "rm nosuch", err: "rm: cannot remove 'nosuch': No such file or directory\n", status: 1},
		{name: "force-missing", args: "rm -f nosuch"},
		{name: "no-operand", args: "rm", err: "rm: missing operand\nTry 'rm --help' for more information.\n", status: 1},
		{name: "force-no-operand", args: "rm -f"},
		{name: "dot", args: "rm -rf .", err: "rm: refusing to remove '.' or '..' directory: skipping '.'\n", status: 1},
		{name: "root", args: "rm -rf /", err: "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", status: 1},
		{name: "interactive", files: []string{"a="}, args: "rm -i a", err: "rm: option '-i' is not supported in ShellSim\n", status: 1},
	})
}

func TestMkdirRmdir(t *testing.T) {
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
		{name: "rmdir", files: []string{"e/"}, args: "rmdir e", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"e": false}) }},
		{name: "rmdir-missing", args: "rmdir nosuch", err: "rmdir: failed to remove 'nosuch': No such file or directory\n", status: 1},
		{name: "rmdir-nonempty", files: []string{"p/q/"}, args: "rmdir p", err: "rmdir: failed to remove 'p': Directory not empty\n", status: 1},
		{name: "rmdir-file", files: []string{"f="}, args: "rmdir f", err: "rmdir: failed to remove 'f': Not a directory\n", status: 1},
		{name: "rmdir-parents", files: []string{"p/q/r/"}, args: "rmdir -p p/q/r", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"p": false}) }},
	})
}

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

func TestLn(t *testing.T) {
	runTable(t, []tc{
		{name: "symlink", files: []string{"f="}, args: "ln -sv f sf", out: "'sf' -> 'f'\n", check: func(t *testing.T, e *commandtest.Env) {
			if got, _ := e.FS.Readlink("/work/sf"); got != "f" {
				t.Errorf("target %q", got)
			}
		}},
		{name: "hard", files: []string{"f=1"}, args: "ln -v f hf", out: "'hf' => 'f'\n"},
		{name: "exists", files: []string{"f=", "g="}, args: "ln -s f g", err: "ln: failed to create symbolic link 'g': File exists\n", status: 1},
		{name: "force", files: []string{"f=", "g="}, args: "ln -sf f g"},
		{name: "hard-dir", files: []string{"d/"}, args: "ln d h", err: "ln: d: hard link not allowed for directory\n", status: 1},
		{name: "hard-no-dir", files: []string{"f="}, args: "ln f d2/x", err: "ln: failed to create hard link 'd2/x' => 'f': No such file or directory\n", status: 1},
		{name: "sym-no-dir", files: []string{"f="}, args: "ln -s f d2/x", err: "ln: failed to create symbolic link 'd2/x': No such file or directory\n", status: 1},
		{name: "target-missing", args: "ln -s a b c", err: "ln: target 'c': No such file or directory\n", status: 1},
		{name: "hard-missing", args: "ln nosuch h", err: "ln: failed to access 'nosuch': No such file or directory\n", status: 1},
		{name: "into-dir", files: []string{"f=", "d/"}, args: "ln -s ../f d", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"d/f": true}) }},
		{name: "no-deref", files: []string{"d/", "old/", "cur->d"}, args: "ln -sfn old cur", check: func(t *testing.T, e *commandtest.Env) {
			if got, _ := e.FS.Readlink("/work/cur"); got != "old" {
				t.Errorf("target %q", got)
			}
		}},
	})
}
