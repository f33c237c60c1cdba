package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestChmod(t *testing.T) {
	mode := func(p string, want uint32) func(*testing.T, *commandtest.Env) {
		return func(t *testing.T, e *commandtest.Env) {
			fi, _ := e.FS.Stat("/work/" + p)
			if got := octalMode(fi.Mode); got != want {
				t.Errorf("%s mode %o, want %o", p, got, want)
			}
		}
	}
	f := []string{"m=x"}
	runTable(t, []tc{
		{name: "octal", files: f, args: "chmod 600 m", check: mode("m", 0o600)},
		{name: "symbolic", files: f, args: "chmod u+x,g-r m", check: mode("m", 0o704)},
		{name: "plus-x", files: f, args: "chmod +x m", check: mode("m", 0o755)},
		{name: "equals", files: f, args: "chmod a=r,u+w m", check: mode("m", 0o644)},
		{name: "copy", files: f, args: "chmod g=u m", check: mode("m", 0o664)},
		{name: "minus-w", files: f, args: "chmod -w m", check: mode("m", 0o444)},
		{name: "verbose", files: f, args: "chmod -v 600 m", out: "mode of 'm' changed from 0644 (rw-r--r--) to 0600 (rw-------)\n"},
		{name: "invalid", files: f, args: "chmod zz m", err: "chmod: invalid mode: 'zz'\nTry 'chmod --help' for more information.\n", status: 1},
		{name: "missing", args: "chmod 600 nosuch", err: "chmod: cannot access 'nosuch': No such file or directory\n", status: 1},
		{name: "no-file", args: "chmod 644", err: "chmod: missing operand after '644'\nTry 'chmod --help' for more information.\n", status: 1},
		{name: "recursive", files: []string{"d/e/f=1"}, args: "chmod -R 700 d", check: mode("d/e/f", 0o700)},
		{name: "X", files: []string{"d/f=1"}, args: "chmod -R a+X d", check: mode("d/f", 0o644)},
	})
}

func TestChmodUmaskWarning(t *testing.T) {
	e := setup(t, []string{"m=x"})
	e.FS.Chmod("/work/m", 0o664)
	_, errs, st := e.Run([]string{"chmod", "-w", "m"}, "")
	if want := "chmod: m: new permissions are r--rw-r--, not r--r--r--\n"; errs != want || st != 1 {
		t.Errorf("got %q %d, want %q 1", errs, st, want)
	}
}

func TestParseMode(t *testing.T) {
	for _, c := range []struct {
		s        string
		old, out uint32
		dir      bool
	}{
		{"755", 0, 0o755, false}, {"u=rwx,go=rx", 0, 0o755, false}, {"a-x", 0o777, 0o666, false},
		{"o+t", 0o777, 0o1777, true}, {"u+s", 0o755, 0o4755, false}, {"go-rwx", 0o755, 0o700, false},
		{"+X", 0o644, 0o755, true}, {"+X", 0o644, 0o644, false}, {"u=g", 0o640, 0o440, false},
	} {
		got, err := parseMode(c.s, c.old, c.dir)
		if err != nil || got != c.out {
			t.Errorf("parseMode(%q, %o) = %o, %v; want %o", c.s, c.old, got, err, c.out)
		}
	}
	for _, bad := range []string{"", "8", "u+q", "x+r", "u", "77777"} {
		if _, err := parseMode(bad, 0, false); err == nil {
			t.Errorf("parseMode(%q) accepted", bad)
		}
	}
}
