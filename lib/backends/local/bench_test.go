package local

import (
	"context"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
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

// BenchmarkUploadDownload10MiB is issue 14's transfer path: one 10 MiB file
// into the machine and back out.
func BenchmarkUploadDownload10MiB(b *testing.B) {
	f := newFactory(b, Options{})
	m := newMachine(b, f, hostSpec())
	dir := b.TempDir()
	src := filepath.Join(dir, "payload")
	data := make([]byte, 10<<20)
	rand.Read(data)
	if err := os.WriteFile(src, data, 0o644); err != nil {
		b.Fatal(err)
	}
	back := filepath.Join(dir, "back")
	ctx := context.Background()
	for b.Loop() {
		if err := m.Upload(ctx, src, "/tmp/payload"); err != nil {
			b.Fatal(err)
		}
		if err := m.Download(ctx, "/tmp/payload", back, machine.DownloadOptions{}); err != nil {
			b.Fatal(err)
		}
		os.Remove(back)
	}
}
