package jq

import (
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// Cases where ShellSim knowingly differs from jq 1.6's text (gojq's
// runtime error messages) or that need no reference run.
func TestDifferences(t *testing.T) {
	e := commandtest.New(t, Commands())
	out, errOut, st := e.Run([]string{"jq", ".a"}, "1")
	if out != "" || st != 5 || !strings.HasPrefix(errOut, "jq: error (at <stdin>:0): ") {
		t.Errorf("index error: %q %q %d", out, errOut, st)
	}
	_, errOut, st = e.Run([]string{"jq", ".a |"}, "1")
	if st != 3 || !strings.HasSuffix(errOut, "jq: 1 compile error\n") {
		t.Errorf("compile error: %q %d", errOut, st)
	}
	out, _, st = e.Run([]string{"jq", "-n", "now"}, "")
	if st != 0 || out != "1735689600\n" {
		t.Errorf("now = %q (want the virtual clock)", out)
	}
}

func TestFormatNumber(t *testing.T) {
	cases := map[float64]string{1: "1", 1e17: "1e+17", 1.5: "1.5", 0.0001: "0.0001", 0.00001: "1e-05",
		123456789012: "123456789012", 12345678901234567890: "12345678901234567000", -2.5e-300: "-2.5e-300"}
	for f, want := range cases {
		if got := formatNumber(f); got != want {
			t.Errorf("formatNumber(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestFuelExhaustion(t *testing.T) {
	e := commandtest.New(t, Commands())
	e.Sys.Fuel = 500
	_, _, st := e.Run([]string{"jq", "-n", "range(100000)"}, "")
	if st != 1 {
		t.Errorf("status %d, want 1 on exhausted fuel", st)
	}
}
