package misc

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// TestBCAgainstHost evaluates random arithmetic in bc here and on the host.
// Opt-in (BC_RANDOM=1). The -l functions are exact truncations; GNU bc's
// own library can be off in the last digit for large arguments (s(-100)
// at scale 9), which is why such cases are not listed.
func TestBCAgainstHost(t *testing.T) {
	if os.Getenv("BC_RANDOM") == "" {
		t.Skip()
	}
	r := rand.New(rand.NewSource(11))
	num := func() string {
		s := fmt.Sprint(r.Intn(2000) - 1000)
		if r.Intn(2) == 0 {
			s += "." + fmt.Sprint(r.Intn(100000))
		}
		if strings.HasPrefix(s, "-") {
			s = "(" + s + ")"
		}
		return s
	}
	var expr func(d int) string
	expr = func(d int) string {
		if d == 0 || r.Intn(3) == 0 {
			return num()
		}
		ops := []string{"+", "-", "*", "/", "%"}
		op := ops[r.Intn(len(ops))]
		if r.Intn(8) == 0 {
			return "(" + expr(d-1) + ")^" + fmt.Sprint(r.Intn(5)-1)
		}
		if r.Intn(10) == 0 {
			return "sqrt(" + strings.TrimPrefix(expr(d-1), "-") + "^2)"
		}
		return "(" + expr(d-1) + op + expr(d-1) + ")"
	}
	var prog strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&prog, "scale=%d; %s\n", r.Intn(12), expr(3))
	}
	for _, flags := range [][]string{{}, {"-l"}} {
		src := prog.String()
		if len(flags) > 0 {
			src += "s(1.5); c(2); a(0.3); l(7.25); e(2.5); a(10); l(0.001); e(-3); scale=40; 4*a(1); e(1)\n"
		}
		cmd := exec.Command("bc", flags...)
		cmd.Stdin = strings.NewReader(src)
		var hostErr strings.Builder
		cmd.Stderr = &hostErr
		want, _ := cmd.Output()
		e := commandtest.New(t, Commands())
		got, errOut, _ := e.Run(append([]string{"bc"}, flags...), src)
		if adrRE.ReplaceAllString(errOut, "adr=1") != adrRE.ReplaceAllString(hostErr.String(), "adr=1") {
			t.Errorf("%v stderr:\n%s\nwant:\n%s", flags, errOut, hostErr.String())
		}
		wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		bad := 0
		for i := 0; i < len(wl) && i < len(gl); i++ {
			if wl[i] != gl[i] {
				bad++
				if bad < 5 {
					t.Errorf("%v line %d: got %q want %q (program line %q)", flags, i, gl[i], wl[i], strings.Split(src, "\n")[min(i, len(strings.Split(src, "\n"))-1)])
				}
			}
		}
		if len(wl) != len(gl) {
			t.Errorf("%v: %d lines, want %d", flags, len(gl), len(wl))
		}
		t.Logf("%v mismatching lines: %d / %d", flags, bad, len(wl))
	}
}
