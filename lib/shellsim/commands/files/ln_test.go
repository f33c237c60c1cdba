package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

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

func TestLnRelative(t *testing.T) {
	runTable(t, []tc{
		{name: "into-dir", files: []string{"a/b/f=", "c/"}, args: "ln -srv a/b/f c/l", out: "'c/l' -> '../a/b/f'\n"},
		{name: "here", files: []string{"a/b/f="}, args: "ln -sr a/b/f .", check: func(t *testing.T, e *commandtest.Env) {
			if got, _ := e.FS.Readlink("/work/f"); got != "a/b/f" {
				t.Errorf("target %q", got)
			}
		}},
		{name: "needs-symbolic", files: []string{"a/b/f="}, args: "ln -r a/b/f x", err: "ln: cannot do --relative without --symbolic\n", status: 1},
	})
}
