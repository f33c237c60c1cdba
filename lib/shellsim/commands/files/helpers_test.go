package files

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/commands/system"
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
	// system gives find -exec real true and false.
	e := commandtest.New(t, Commands(), testStubs, system.Commands())
	writeFiles(e, files)
	return e
}

// writeFiles creates "path=content" files (\n for newlines), "dir/"
// directories and "link->target" symlinks under /work.
func writeFiles(e *commandtest.Env, files []string) {
	for _, f := range files {
		switch {
		case strings.Contains(f, "->"):
			l, target, _ := strings.Cut(f, "->")
			if err := e.FS.Symlink(target, "/work/"+l); err != nil {
				e.T.Fatal(err)
			}
		case strings.HasSuffix(f, "/"):
			e.Mkdir(strings.TrimSuffix(f, "/"))
		default:
			p, content, _ := strings.Cut(f, "=")
			e.WriteFile(p, strings.ReplaceAll(content, `\n`, "\n"))
		}
	}
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
			Status: c.status, Check: c.check, Setup: func(e *commandtest.Env) { writeFiles(e, c.files) }}
	}
	commandtest.Goldens{Commands: [][]command.Entry{Commands(), testStubs, system.Commands()}}.Run(t, goldens)
}

func exists(t *testing.T, e *commandtest.Env, want map[string]bool) {
	t.Helper()
	for p, w := range want {
		if got := e.Exists(p); got != w {
			t.Errorf("exists(%s) = %v, want %v", p, got, w)
		}
	}
}

var testStubs = []command.Entry{
	// A stand-in for the shell's echo, for xargs and find tests.
	{Name: "test-echo", Trust: command.Real, Run: func(inv *command.Invocation) int {
		fmt.Fprintln(inv.Stdout, strings.Join(inv.Args[1:], " "))
		return 0
	}},
	{Name: "test-exit", Trust: command.Real, Run: func(inv *command.Invocation) int {
		n, _ := strconv.Atoi(inv.Args[1])
		return n
	}},
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
