package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestMv(t *testing.T) {
	runTable(t, []tc{
		{name: "rename", files: []string{"a=1"}, args: "mv a b", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"a": false, "b": true}) }},
		{name: "into-dir", files: []string{"a=1", "d/"}, args: "mv -v a d", out: "renamed 'a' -> 'd/a'\n", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"a": false, "d/a": true}) }},
		{name: "dir", files: []string{"d/x=1"}, args: "mv d e", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"d": false, "e/x": true}) }},
		{name: "missing", args: "mv nosuch b", err: "mv: cannot stat 'nosuch': No such file or directory\n", status: 1},
		{name: "no-clobber", files: []string{"a=1", "b=2"}, args: "mv -n a b", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"a": true}) }},
		{name: "subdir-of-itself", files: []string{"d/"}, args: "mv d d/e", err: "mv: cannot move 'd' to a subdirectory of itself, 'd/e'\n", status: 1},
		{name: "dir-over-file", files: []string{"d/", "f=1"}, args: "mv d f", err: "mv: cannot overwrite non-directory 'f' with directory 'd'\n", status: 1},
		{name: "several-not-dir", files: []string{"a=1", "b=1"}, args: "mv a b c", err: "mv: target 'c': No such file or directory\n", status: 1},
	})
}
