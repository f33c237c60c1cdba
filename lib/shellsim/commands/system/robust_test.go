package system

import (
	"strings"
	"testing"
)

// failWriter fails every write, like a pipe whose reader has gone.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) { w.n++; return 0, errClosed }

type closedErr struct{}

func (closedErr) Error() string { return "broken pipe" }

var errClosed = closedErr{}

// TestStopsWhenStopped runs every command with no fuel and with a standard
// output that fails: each must return a non-zero status without panicking.
func TestStopsWhenStopped(t *testing.T) {
	cmds := []string{"date", "sleep 1", "timeout 1 true", "env", "printenv", "uname -a", "hostname",
		"id", "whoami", "nproc", "free", "ps", "expr 1 + 1", "true"}
	for _, c := range cmds {
		args := strings.Fields(c)
		e := newEnv(t)
		e.Sys.Fuel = 0
		if _, _, st := e.Run(args, ""); st == 0 {
			t.Errorf("%s with no fuel: status 0", c)
		}
		e = newEnv(t)
		w := &failWriter{}
		var errb strings.Builder
		if st := e.RunIO(args, strings.NewReader(""), w, &errb); w.n > 0 && st == 0 {
			t.Errorf("%s: status 0 after a failed write", c)
		}
	}
}
