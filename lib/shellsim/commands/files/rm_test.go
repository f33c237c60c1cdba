package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestRm(t *testing.T) {
	tree := []string{"d/x=", "d/s/y="}
	runTable(t, []tc{
		{name: "file", files: []string{"a="}, args: "rm a", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"a": false}) }},
		{name: "dir-no-r", files: tree, args: "rm d", err: "rm: cannot remove 'd': Is a directory\n", status: 1},
		{name: "dir-d-nonempty", files: tree, args: "rm -d d", err: "rm: cannot remove 'd': Directory not empty\n", status: 1},
		{name: "dir-d-empty", files: []string{"e/"}, args: "rm -dv e", out: "removed directory 'e'\n"},
		{name: "recursive-verbose", files: tree, args: "rm -rv d", out: "removed 'd/s/y'\nremoved directory 'd/s'\nremoved 'd/x'\nremoved directory 'd'\n",
			check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"d": false}) }},
		{name: "missing", args: "rm nosuch", err: "rm: cannot remove 'nosuch': No such file or directory\n", status: 1},
		{name: "force-missing", args: "rm -f nosuch"},
		{name: "no-operand", args: "rm", err: "rm: missing operand\nTry 'rm --help' for more information.\n", status: 1},
		{name: "force-no-operand", args: "rm -f"},
		{name: "dot", args: "rm -rf .", err: "rm: refusing to remove '.' or '..' directory: skipping '.'\n", status: 1},
		{name: "root", args: "rm -rf /", err: "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", status: 1},
		{name: "interactive", files: []string{"a="}, args: "rm -i a", err: "rm: option '-i' is not supported in ShellSim\n", status: 1},
	})
}
