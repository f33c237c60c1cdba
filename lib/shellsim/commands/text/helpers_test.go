package text

import (
	"sort"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// tc is one golden case: a command line, files under /work (a name ending
// in "/" is a directory), stdin, and the exact expected results.
type tc struct {
	name   string
	args   []string
	files  map[string]string
	stdin  string
	out    string
	err    string
	status int
	env    map[string]string
	// check, if set, inspects the environment afterwards.
	check func(t *testing.T, e *commandtest.Env)
}

func setup(t *testing.T, files map[string]string) *commandtest.Env {
	e := commandtest.New(t)
	e.Env["LANG"] = "C"
	for p, c := range files {
		if strings.HasSuffix(p, "/") {
			e.Mkdir(p)
			continue
		}
		e.WriteFile(p, c)
	}
	return e
}

func runTable(t *testing.T, cases []tc) {
	t.Helper()
	for _, c := range cases {
		name := c.name
		if name == "" {
			name = strings.Join(c.args, " ")
		}
		t.Run(name, func(t *testing.T) {
			e := setup(t, c.files)
			for k, v := range c.env {
				e.Env[k] = v
			}
			out, errs, st := e.Run(c.args, c.stdin)
			if out != c.out || errs != c.err || st != c.status {
				t.Errorf("%q:\n got out=%q\n     err=%q status=%d\nwant out=%q\n     err=%q status=%d",
					c.args, out, errs, st, c.out, c.err, c.status)
			}
			if e.Sys.Mem != 0 {
				t.Errorf("%q: %d bytes of memory not released", c.args, e.Sys.Mem)
			}
			if c.check != nil {
				c.check(t, e)
			}
		})
	}
}

// sh splits a command line on single spaces, for readable tables.
func sh(s string) []string { return strings.Split(s, " ") }

// wantFiles checks that /work holds exactly the inputs plus the created
// files, with the given contents.
func wantFiles(inputs, created map[string]string) func(t *testing.T, e *commandtest.Env) {
	return func(t *testing.T, e *commandtest.Env) {
		t.Helper()
		ents, err := e.FS.ReadDir("/work")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ent := range ents {
			if _, in := inputs[ent.Name]; !in {
				got = append(got, ent.Name)
			}
		}
		var want []string
		for n := range created {
			want = append(want, n)
		}
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("created files %q, want %q", got, want)
			return
		}
		for n, c := range created {
			if g := e.ReadFile(n); g != c {
				t.Errorf("%s = %q, want %q", n, g, c)
			}
		}
	}
}
