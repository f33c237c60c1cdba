package local

import (
	"context"
	"os/exec"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

func BenchmarkRunTrue(b *testing.B) {
	f := newFactory(b, Options{})
	m := newMachine(b, f, hostSpec())
	cmd := machine.Command{Argv: []string{"true"}, OutputLimit: machine.DefaultOutputLimit}
	ctx := context.Background()
	for b.Loop() {
		if _, err := m.Run(ctx, cmd); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBareTrue(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCreateClose(b *testing.B) {
	f := newFactory(b, Options{})
	ctx := context.Background()
	for b.Loop() {
		m, err := f.Create(ctx, hostSpec())
		if err != nil {
			b.Fatal(err)
		}
		m.Close(ctx)
	}
}

// BenchmarkRunMissing measures the protocol alone: the helper answers
// without starting a process.
func BenchmarkRunMissing(b *testing.B) {
	f := newFactory(b, Options{})
	m := newMachine(b, f, hostSpec())
	cmd := machine.Command{Argv: []string{"/no/such/program"}, OutputLimit: machine.DefaultOutputLimit}
	ctx := context.Background()
	for b.Loop() {
		if _, err := m.Run(ctx, cmd); err != nil {
			b.Fatal(err)
		}
	}
}
