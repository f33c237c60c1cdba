package shellsim_test

import (
	"context"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
)

func BenchmarkNewEnvironment(b *testing.B) {
	for b.Loop() {
		shellsim.NewEnvironment(shellsim.DefaultLimits())
	}
}

func BenchmarkEchoHi(b *testing.B) {
	l := shellsim.DefaultLimits()
	l.CPU, l.Output = 1<<60, 1<<60 // usage is cumulative across actions
	env := shellsim.NewEnvironment(l)
	for b.Loop() {
		env.Run(context.Background(), "echo hi", nil)
	}
}

func BenchmarkLoop(b *testing.B) {
	for b.Loop() {
		env := shellsim.NewEnvironment(shellsim.DefaultLimits())
		env.Run(context.Background(), `i=0; s=0; while [ $i -lt 10000 ]; do s=$((s+i)); i=$((i+1)); done`, nil)
	}
}

func BenchmarkPipeline(b *testing.B) {
	var sb []byte
	words := []string{"alpha", "beta", "gamma", "delta", "error", "warning", "info", "debug"}
	for i := 0; len(sb) < 1<<20; i++ {
		sb = append(sb, []byte(words[i%8]+" "+words[(i*7)%8]+" line\n")...)
	}
	l := shellsim.DefaultLimits()
	l.CPU = 1 << 40
	for b.Loop() {
		env := shellsim.NewEnvironment(l)
		env.Run(context.Background(), `grep error | sort | uniq -c | sort -n | tail`, sb)
	}
}
