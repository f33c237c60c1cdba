package awk

import (
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// FuzzAwk checks that no program, however malformed, crashes the
// interpreter or escapes the fuel limit.
func FuzzAwk(f *testing.F) {
	for _, tc := range append(awkTests, awkTests2...) {
		if len(tc.Args) > 1 {
			f.Add(tc.Args[len(tc.Args)-1], tc.Stdin)
		}
	}
	f.Add(`{ a[$1] = a[$1] ? a[$1] "," $2 : $2 } END { for (k in a) print k, a[k] }`, "x 1\nx 2\n")
	f.Fuzz(func(t *testing.T, prog, stdin string) {
		e := commandtest.New(t, Commands(), shStub)
		e.Sys.Fuel = 200000
		start := time.Now()
		_, errs, _ := e.Run([]string{"awk", prog}, stdin)
		if strings.Contains(errs, "internal") {
			t.Fatalf("program %q: %s", prog, errs)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("program %q took %v", prog, d)
		}
	})
}
