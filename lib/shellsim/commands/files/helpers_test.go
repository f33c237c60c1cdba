package files

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// tc is one golden case: files to create (a name ending in "/" is a
// directory, "name->target" a symlink), a command line, and the exact
// stdout, stderr and status expected (GNU coreutils' in the C locale).
type tc struct {
	name   string
	files  []string // "path=content", "dir/", "link->target"
	args   string   // split on spaces; use argv for anything else
	argv   []string
	stdin  string
	out    string
	err    string
	status int
	check  func(t *testing.T, e *commandtest.Env)
}

func setup(t *testing.T, files []string) *commandtest.Env {
	e := commandtest.New(t)
	for _, f := range files {
		switch {
		case strings.Contains(f, "->"):
			l, target, _ := strings.Cut(f, "->")
			if err := e.FS.Symlink(target, "/work/"+l); err != nil {
				t.Fatal(err)
			}
		case strings.HasSuffix(f, "/"):
			e.Mkdir(strings.TrimSuffix(f, "/"))
		default:
			p, content, _ := strings.Cut(f, "=")
			e.WriteFile(p, strings.ReplaceAll(content, `\n`, "\n"))
		}
	}
	return e
}

func runTable(t *testing.T, cases []tc) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := setup(t, c.files)
			argv := c.argv
			if argv == nil {
				argv = strings.Fields(c.args)
			}
			out, errs, st := e.Run(argv, c.stdin)
			if out != c.out || errs != c.err || st != c.status {
				t.Errorf("%v:\n got stdout %q\nwant stdout %q\n got stderr %q\nwant stderr %q\n got status %d want %d",
					argv, out, c.out, errs, c.err, st, c.status)
			}
			if c.check != nil {
				c.check(t, e)
			}
		})
	}
}

func exists(t *testing.T, e *commandtest.Env, want map[string]bool) {
	t.Helper()
	for p, w := range want {
		if got := e.Exists(p); got != w {
			t.Errorf("exists(%s) = %v, want %v", p, got, w)
		}
	}
}

func init() {
	// A stand-in for the shell's echo, for xargs and find tests.
	command.Register("test-echo", command.Real, func(inv *command.Invocation) int {
		fmt.Fprintln(inv.Stdout, strings.Join(inv.Args[1:], " "))
		return 0
	})
	command.Register("test-exit", command.Real, func(inv *command.Invocation) int {
		n, _ := strconv.Atoi(inv.Args[1])
		return n
	})
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
