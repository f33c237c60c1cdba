package system

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// tc is one golden case: a command line and the exact stdout, stderr and
// status expected (GNU coreutils' in the C locale, UTC).
type tc struct {
	name   string
	args   string
	argv   []string
	stdin  string
	out    string
	err    string
	status int
	env    map[string]string
	check  func(t *testing.T, e *commandtest.Env)
}

func runTable(t *testing.T, cases []tc) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := commandtest.New(t)
			if c.env != nil {
				e.Env = c.env
			}
			argv := c.argv
			if argv == nil {
				argv = strings.Fields(c.args)
			}
			out, errs, st := e.Run(argv, c.stdin)
			if out != c.out || errs != c.err || st != c.status {
				t.Errorf("%q:\n got stdout %q\nwant stdout %q\n got stderr %q\nwant stderr %q\n got status %d want %d",
					argv, out, c.out, errs, c.err, st, c.status)
			}
			if c.check != nil {
				c.check(t, e)
			}
		})
	}
}

func init() {
	// Stand-ins for the shell's echo and for a long-running child.
	command.Register("test-echo", command.Real, func(inv *command.Invocation) int {
		fmt.Fprintln(inv.Stdout, strings.Join(inv.Args[1:], " "))
		return 0
	})
}

func newEnv(t *testing.T) *commandtest.Env { return commandtest.New(t) }
