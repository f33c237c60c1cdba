package qemu

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestStorageMBSizesTheDisk: storage_mb is the size of the machine's root
// disk; a size the image does not fit in is a startup error.
func TestStorageMBSizesTheDisk(t *testing.T) {
	f := newTestFactory(t, Options{})
	spec := testSpec()
	size := 96
	spec.StorageMB = &size
	m := newTestMachine(t, f, spec)
	r := run(t, m, sh("df -m / | tail -n 1"))
	fields := strings.Fields(string(r.Stdout))
	if len(fields) < 2 {
		t.Fatalf("df: %q %q", r.Stdout, r.Stderr)
	}
	total, err := strconv.Atoi(fields[1])
	if err != nil || total < 60 || total > 96 {
		t.Fatalf("a %d MiB disk has %q MiB", size, fields[1])
	}
	tiny := 1
	spec.StorageMB = &tiny
	_, err = f.Create(context.Background(), spec)
	var se *machine.StartupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "mkfs") {
		t.Fatalf("an image larger than storage_mb: %v", err)
	}
}
