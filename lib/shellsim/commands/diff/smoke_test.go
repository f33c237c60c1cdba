package diff

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// TestSmoke feeds odd arguments and inputs to every command of the package
// and only checks that nothing panics or hangs.
func TestSmoke(t *testing.T) {
	inputs := []string{"", "\n", "\x00\xff", "{", "[1,", "a\nb", "--- a\n+++ b\n@@ -1 +1 @@\n", "@@", "\\", "\"", "((((", "1/0", "define f(", "f(a", "a[", "{}", "\x1f\x8b\x08", "PK\x03\x04"}
	argsets := [][]string{{}, {"-"}, {"--"}, {"-x"}, {"--bogus"}, {"nosuch"}, {"f"}, {"f", "f"}, {"-d"}, {"-c"}, {"-l"}, {"-r"}, {"."}, {"-n", "-e"}, {"-s", "x"}, {"-p", "1"}}
	for _, name := range []string{"diff", "cmp", "patch", "apply_patch"} {
		for _, args := range argsets {
			for _, in := range inputs {
				e := commandtest.New(t, Commands())
				e.WriteFile("f", in)
				e.Sys.Fuel = 200000
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s %q with input %q panicked: %v", name, args, in, r)
						}
					}()
					e.Run(append([]string{name}, args...), in)
				}()
			}
		}
	}
}
