package files

import (
	"strings"
	"testing"
)

// TestStopsWhenStopped runs every command with no fuel and with a standard
// output that fails: each must return promptly with a non-zero status and
// must not panic (the executor decides the final status).
func TestStopsWhenStopped(t *testing.T) {
	tree := []string{"d/e/f=hello", "d/g=x", "l->d/g"}
	cmds := []string{
		"ls -lR d", "cp -r d d2", "mv d/g d/h", "rm -r d", "mkdir -p x/y", "rmdir d/e", "touch n",
		"ln -s d/g m", "chmod -R 700 d", "chown -R user d", "chgrp user d", "stat d/g", "du -a d", "df",
		"find d -print", "basename a/b", "dirname a/b", "realpath d", "readlink l", "mktemp",
		"tree d", "truncate -s 10 d/g", "xargs test-echo",
	}
	for _, c := range cmds {
		args := strings.Fields(c)
		e := setup(t, tree)
		e.Sys.Fuel = 0
		if _, _, st := e.Run(args, "a b c\n"); st == 0 {
			t.Errorf("%s with no fuel: status 0", c)
		}
		e = setup(t, tree)
		var errb strings.Builder
		w := &failWriter{}
		st := e.RunIO(args, strings.NewReader("a b c\n"), w, &errb)
		// xargs' output is its children's; their status is what it returns.
		if w.n > 0 && st == 0 && args[0] != "xargs" {
			t.Errorf("%s: status 0 after a failed write", c)
		}
	}
}
