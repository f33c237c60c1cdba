package digest

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

//go:generate sh -c "python3 ../../command/commandtest/gengolden.py testdata/cases.py digest goldens > goldens_test.go"

// golden is one case whose expected output was recorded from the real tool.
type golden struct {
	name   string
	args   []string
	stdin  string
	files  map[string]string
	dirs   []string
	env    map[string]string
	out    string
	err    string
	status int
	after  map[string]*string
}

func strp(s string) *string { return &s }

// strp is used by generated tables that check files after a run.
var _ = strp

func runGoldens(t *testing.T, table []golden) {
	for _, g := range table {
		t.Run(g.name, func(t *testing.T) {
			e := commandtest.New(t)
			for p, c := range g.files {
				e.WriteFile(p, c)
				if err := e.FS.Chtimes(command.Join(e.Dir, p), vfs.Epoch); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range g.dirs {
				e.Mkdir(d)
			}
			for k, v := range g.env {
				e.Env[k] = v
			}
			out, errOut, st := e.Run(g.args, g.stdin)
			if out != g.out || errOut != g.err || st != g.status {
				t.Errorf("%q:\n got out=%q\n     err=%q status=%d\nwant out=%q\n     err=%q status=%d", g.args, out, errOut, st, g.out, g.err, g.status)
			}
			for p, want := range g.after {
				got := e.Exists(p)
				if want == nil {
					if got {
						t.Errorf("%s exists, want absent", p)
					}
					continue
				}
				if !got {
					t.Errorf("%s missing", p)
					continue
				}
				if c := e.ReadFile(p); c != *want {
					t.Errorf("%s = %q, want %q", p, c, *want)
				}
			}
		})
	}
}

func TestGoldens(t *testing.T) { runGoldens(t, goldens) }
