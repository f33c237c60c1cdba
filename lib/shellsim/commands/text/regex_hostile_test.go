package text

import (
	"strings"
	"testing"
	"time"
)

// Patterns whose backtracking is exponential cost fuel, not unbounded
// host CPU: with a small fuel budget grep stops quickly and quietly; with
// unlimited fuel each match is cut at posixre's step bound and reported.
func TestGrepHostilePattern(t *testing.T) {
	line := strings.Repeat("a", 60) + "c\n"
	input := strings.Repeat(line, 50)
	for _, pat := range []string{`\(a*\)*b\1`, `\(\(a*\)*\)*\1b`} {
		e := setup(t, nil)
		e.Sys.Fuel = 2_000_000
		start := time.Now()
		out, _, st := e.Run([]string{"grep", pat}, input)
		if out != "" || st == 0 || e.Sys.Fuel > 1000 {
			t.Errorf("%q with fuel: out %q status %d fuel left %d", pat, out, st, e.Sys.Fuel)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%q with fuel took %v", pat, d)
		}

		e = setup(t, nil)
		start = time.Now()
		_, errs, st := e.Run([]string{"grep", pat}, line)
		if st != 2 || !strings.Contains(errs, "too complex") {
			t.Errorf("%q unmetered: status %d stderr %q", pat, st, errs)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%q unmetered took %v", pat, d)
		}
	}
}
