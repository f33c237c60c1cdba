package interp_test

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/python"
)

// BenchmarkLoop is the 200k-iteration loop of bench/shellsim_python.
func BenchmarkLoop(b *testing.B) {
	src := "total = 0\nfor i in range(200000):\n    total += i * 2 % 7\nprint(total)\n"
	for i := 0; i < b.N; i++ {
		e := commandtest.New(b, python.Commands())
		if out, errOut, st := e.Run([]string{"python3", "-c", src}, ""); st != 0 || out != "599997\n" {
			b.Fatalf("%d %q %q", st, out, errOut)
		}
	}
}

// BenchmarkFunctionCalls measures calls, attribute access and method dispatch.
func BenchmarkFunctionCalls(b *testing.B) {
	src := "class P:\n    def __init__(self, x): self.x = x\n    def get(self): return self.x\ndef f(p): return p.get() + 1\ns = 0\nfor i in range(50000):\n    s += f(P(i))\nprint(s)\n"
	for i := 0; i < b.N; i++ {
		e := commandtest.New(b, python.Commands())
		if _, errOut, st := e.Run([]string{"python3", "-c", src}, ""); st != 0 {
			b.Fatalf("%d %q", st, errOut)
		}
	}
}
