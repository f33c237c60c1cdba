package files

import (
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestCp(t *testing.T) {
	content := func(p, want string) func(*testing.T, *commandtest.Env) {
		return func(t *testing.T, e *commandtest.Env) {
			if got := e.ReadFile(p); got != want {
				t.Errorf("%s = %q, want %q", p, got, want)
			}
		}
	}
	runTable(t, []tc{
		{name: "file", files: []string{"a=one"}, args: "cp a b", check: content("b", "one")},
		{name: "into-dir", files: []string{"a=one", "d/"}, args: "cp a d", check: content("d/a", "one")},
		{name: "overwrite", files: []string{"a=one", "b=two"}, args: "cp a b", check: content("b", "one")},
		{name: "no-clobber", files: []string{"a=one", "b=two"}, args: "cp -n a b", check: content("b", "two")},
		{name: "verbose", files: []string{"a=one", "d/"}, args: "cp -v a d/", out: "'a' -> 'd/a'\n"},
		{name: "dir-without-r", files: []string{"d/"}, args: "cp d e", err: "cp: -r not specified; omitting directory 'd'\n", status: 1},
		{name: "recursive", files: []string{"d/x=1", "d/s/y=2"}, args: "cp -r d e", check: content("e/s/y", "2")},
		{name: "recursive-into", files: []string{"d/x=1", "e/"}, args: "cp -r d e", check: content("e/d/x", "1")},
		{name: "into-itself", files: []string{"d/x=1"}, args: "cp -r d d/sub", err: "cp: cannot copy a directory, 'd', into itself, 'd/sub'\n", status: 1},
		{name: "missing", args: "cp nosuch b", err: "cp: cannot stat 'nosuch': No such file or directory\n", status: 1},
		{name: "same", files: []string{"a=1"}, args: "cp a a", err: "cp: 'a' and 'a' are the same file\n", status: 1},
		{name: "no-operand", args: "cp", err: "cp: missing file operand\nTry 'cp --help' for more information.\n", status: 1},
		{name: "no-dest", files: []string{"a=1"}, args: "cp a", err: "cp: missing destination file operand after 'a'\nTry 'cp --help' for more information.\n", status: 1},
		{name: "not-dir", files: []string{"a=1", "b=2"}, args: "cp a b c", err: "cp: target 'c': No such file or directory\n", status: 1},
		{name: "symlink-archive", files: []string{"a=1", "d/", "d/l->../a"}, args: "cp -a d e", check: func(t *testing.T, e *commandtest.Env) {
			if got, _ := e.FS.Readlink("/work/e/l"); got != "../a" {
				t.Errorf("link = %q", got)
			}
		}},
		{name: "interactive", files: []string{"a=1"}, args: "cp -i a b", err: "cp: option '-i' is not supported in ShellSim\n", status: 1},
	})
}

func TestCpPreserve(t *testing.T) {
	e := setup(t, []string{"a=1"})
	if err := e.FS.Chmod("/work/a", 0o751); err != nil {
		t.Fatal(err)
	}
	e.Sys.Clock += 3600e9
	if _, _, st := e.Run([]string{"cp", "-p", "a", "b"}, ""); st != 0 {
		t.Fatal(st)
	}
	if _, _, st := e.Run([]string{"cp", "a", "c"}, ""); st != 0 {
		t.Fatal(st)
	}
	a, _ := e.FS.Stat("/work/a")
	b, _ := e.FS.Stat("/work/b")
	c, _ := e.FS.Stat("/work/c")
	if b.Mode != a.Mode || !b.ModTime.Equal(a.ModTime) {
		t.Errorf("-p: mode %v time %v, want %v %v", b.Mode, b.ModTime, a.Mode, a.ModTime)
	}
	if c.Mode.Perm() != 0o751&^0o022 || c.ModTime.Equal(a.ModTime) {
		t.Errorf("plain: mode %v time %v", c.Mode, c.ModTime)
	}
}

func TestCpMvUpdate(t *testing.T) {
	e := setup(t, []string{"old=1", "dst=2"})
	e.Sys.Clock += time.Hour
	e.WriteFile("new", "3")
	e.Run([]string{"cp", "-u", "old", "dst"}, "")
	if got := e.ReadFile("dst"); got != "2" {
		t.Errorf("cp -u copied an older file: %q", got)
	}
	e.Run([]string{"cp", "-u", "new", "dst"}, "")
	if got := e.ReadFile("dst"); got != "3" {
		t.Errorf("cp -u skipped a newer file: %q", got)
	}
	e.Run([]string{"mv", "-u", "old", "dst"}, "")
	if !e.Exists("old") {
		t.Errorf("mv -u moved an older file")
	}
}

func TestCpParents(t *testing.T) {
	runTable(t, []tc{
		{name: "parents", files: []string{"a/b/f=1", "dest/"}, args: "cp --parents a/b/f dest", check: func(t *testing.T, e *commandtest.Env) {
			if got := e.ReadFile("dest/a/b/f"); got != "1" {
				t.Errorf("got %q", got)
			}
		}},
		{name: "not-dir", files: []string{"a/b/f=1"}, args: "cp --parents a/b/f nodir", err: "cp: with --parents, the destination must be a directory\nTry 'cp --help' for more information.\n", status: 1},
	})
}
