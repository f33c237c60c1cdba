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

// runTable runs the cases on commandtest's golden runner.
func runTable(t *testing.T, cases []tc) {
	t.Helper()
	goldens := make([]commandtest.Golden, len(cases))
	for i, c := range cases {
		argv := c.argv
		if argv == nil {
			argv = strings.Fields(c.args)
		}
		goldens[i] = commandtest.Golden{Name: c.name, Args: argv, Stdin: c.stdin, Stdout: c.out, Stderr: c.err,
			Status: c.status, Check: c.check, Setup: func(e *commandtest.Env) {
				if c.env != nil {
					e.Env = c.env
				}
			}}
	}
	commandtest.Goldens{Commands: [][]command.Entry{Commands(), testStubs, sleepStub}}.Run(t, goldens)
}

var testStubs = []command.Entry{
	// Stand-ins for the shell's echo and for a long-running child.
	{Name: "test-echo", Trust: command.Real, Run: func(inv *command.Invocation) int {
		fmt.Fprintln(inv.Stdout, strings.Join(inv.Args[1:], " "))
		return 0
	}},
}

func newEnv(t *testing.T) *commandtest.Env {
	return commandtest.New(t, Commands(), testStubs, sleepStub)
}
