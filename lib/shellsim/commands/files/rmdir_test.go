package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestRmdir(t *testing.T) {
	runTable(t, []tc{
		{name: "rmdir", files: []string{"e/"}, args: "rmdir e", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"e": false}) }},
		{name: "rmdir-missing", args: "rmdir nosuch", err: "rmdir: failed to remove 'nosuch': No such file or directory\n", status: 1},
		{name: "rmdir-nonempty", files: []string{"p/q/"}, args: "rmdir p", err: "rmdir: failed to remove 'p': Directory not empty\n", status: 1},
		{name: "rmdir-file", files: []string{"f="}, args: "rmdir f", err: "rmdir: failed to remove 'f': Not a directory\n", status: 1},
		{name: "rmdir-parents", files: []string{"p/q/r/"}, args: "rmdir -p p/q/r", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"p": false}) }},
	})
}
