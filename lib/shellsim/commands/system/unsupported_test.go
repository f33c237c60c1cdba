package system

import (
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestUnsupported(t *testing.T) {
	for _, n := range []string{"python3", "git", "sudo", "vim"} {
		e := commandtest.New(t, Unavailable())
		out, errs, st := e.Run([]string{n, "--version"}, "")
		if out != "" || errs != n+": command not available in ShellSim\n" || st != 127 {
			t.Errorf("%s: %q %q %d", n, out, errs, st)
		}
		if strings.Join(e.Sys.Unsupporteds, ",") != n {
			t.Errorf("%s: recorded %q", n, e.Sys.Unsupporteds)
		}
	}
}
