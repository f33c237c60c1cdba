package commandtest

import (
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Golden is one table-driven command case: run Args with Stdin and Env
// over Files and expect exactly Stdout, Stderr and Status. Tables are
// written by hand or generated from the real tools (gengolden.py).
type Golden struct {
	Name  string // default: the arguments joined by spaces
	Args  []string
	Stdin string
	// Files are created under the working directory before the run; a
	// name ending in "/" is a directory.
	Files map[string]string
	Dirs  []string          // more directories to create
	Env   map[string]string // added to the environment
	// Setup, if set, prepares what the fields above cannot (links, a
	// whole environment), after the files are written.
	Setup  func(e *Env)
	Stdout string
	Stderr string
	Status int
	// After holds files to check afterwards: their content, or nil for a
	// file that must not exist.
	After map[string]*string
	// Check, if set, inspects the environment afterwards.
	Check func(t *testing.T, e *Env)
}

// Goldens runs golden tables: every command package's tables go through
// this one runner.
type Goldens struct {
	// Commands are the sets of commands each case's environment holds.
	Commands [][]command.Entry
	// Setup, if set, prepares each fresh environment before its files are
	// written (a locale, a clock).
	Setup func(e *Env)
	// Normalize, if set, rewrites the outputs before they are compared
	// (parts that legitimately differ from the recorded tool's, such as
	// bytecode addresses).
	Normalize func(stdout, stderr string) (string, string)
}

// Run runs each case as a subtest in a fresh environment. Every case also
// checks that the command released all the memory it reserved.
func (g Goldens) Run(t *testing.T, cases []Golden) {
	t.Helper()
	for _, c := range cases {
		name := c.Name
		if name == "" {
			name = strings.Join(c.Args, " ")
		}
		t.Run(name, func(t *testing.T) {
			e := New(t, g.Commands...)
			if g.Setup != nil {
				g.Setup(e)
			}
			for p, content := range c.Files {
				if strings.HasSuffix(p, "/") {
					e.Mkdir(p)
					continue
				}
				e.WriteFile(p, content)
			}
			for _, d := range c.Dirs {
				e.Mkdir(d)
			}
			for k, v := range c.Env {
				e.Env[k] = v
			}
			if c.Setup != nil {
				c.Setup(e)
			}
			out, errs, st := e.Run(c.Args, c.Stdin)
			if g.Normalize != nil {
				out, errs = g.Normalize(out, errs)
			}
			if out != c.Stdout || errs != c.Stderr || st != c.Status {
				t.Errorf("%q:\n got stdout %q\n     stderr %q status %d\nwant stdout %q\n     stderr %q status %d",
					c.Args, out, errs, st, c.Stdout, c.Stderr, c.Status)
			}
			if e.Sys.Mem != 0 {
				t.Errorf("%q: %d bytes of memory not released", c.Args, e.Sys.Mem)
			}
			for p, want := range c.After {
				got := e.Exists(p)
				switch {
				case want == nil && got:
					t.Errorf("%s exists, want absent", p)
				case want != nil && !got:
					t.Errorf("%s missing", p)
				case want != nil:
					if content := e.ReadFile(p); content != *want {
						t.Errorf("%s = %q, want %q", p, content, *want)
					}
				}
			}
			if c.Check != nil {
				c.Check(t, e)
			}
		})
	}
}

// Text returns a pointer to s, for Golden.After.
func Text(s string) *string { return &s }
