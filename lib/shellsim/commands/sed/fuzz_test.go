package sed

import (
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// FuzzSed checks that no script crashes sed or escapes the fuel limit.
func FuzzSed(f *testing.F) {
	for _, tc := range append(sedTests, sedTests2...) {
		if len(tc.Args) > 1 {
			f.Add(tc.Args[len(tc.Args)-1], tc.Stdin)
		}
	}
	f.Fuzz(func(t *testing.T, script, stdin string) {
		e := commandtest.New(t, Commands(), shStub)
		e.Sys.Fuel = 200000
		start := time.Now()
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("script %q panicked: %v", script, r)
				}
			}()
			e.Run([]string{"sed", "-e", script}, stdin)
		}()
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("script %q took %v", script, d)
		}
	})
}
