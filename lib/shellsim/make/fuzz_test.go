package make_test

import (
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	mk "github.com/shellbox/shellbox/lib/shellsim/make"
)

// FuzzMakefile: any Makefile either runs (dry-run) or fails with a status;
// make never panics or loops (self-referencing variables, recursive
// $(call), dependency cycles are all bounded).
func FuzzMakefile(f *testing.F) {
	for _, c := range cases {
		if m, ok := c.files["Makefile"]; ok {
			f.Add(m)
		}
	}
	for _, s := range []string{"A = $(A)\nall:\n\t@echo $(A)\n", "f = $(call f)\nall:\n\t@echo $(call f)\n",
		"a: b\nb: a\n", "x := $(foreach i,1 2 3,$(foreach j,$(i) $(i),$(j)$(j)))\nall: ; @echo $(x)\n",
		"ifeq (a,a)\nifdef X\nelse\nendif\n", "$(eval x: y)\n", "%.o: %.o\n\ttrue\nall: a.o\n", "define A\n$(A)\nendef\nt: ; $(A)\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, makefile string) {
		e := commandtest.New(t, mk.Commands(), []command.Entry{{Name: "sh", Trust: command.Real, Run: func(inv *command.Invocation) int { return 0 }}})
		e.Sys.Fuel = 200000
		e.WriteFile("Makefile", makefile)
		start := time.Now()
		_, errOut, st := e.Run([]string{"make", "-n", "-k"}, "")
		if st != 0 && st != 1 && st != 2 {
			t.Fatalf("status %d: %s", st, errOut)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("took %v", d)
		}
		_ = strings.TrimSpace
	})
}
