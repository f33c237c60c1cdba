package qemu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestRestoreFromSavedState: the first create saves a booted template,
// later creates restore it; restored machines are independent, get their
// own clock, randomness and working directory, and keep the image intact.
func TestRestoreFromSavedState(t *testing.T) {
	cache := t.TempDir()
	on := true
	f := newTestFactory(t, Options{CacheDir: cache, Restore: &on})
	first := newTestMachine(t, f, testSpec())
	if !first.Restored() {
		t.Fatal("the first machine did not start from the state it saved")
	}
	states, _ := filepath.Glob(filepath.Join(cache, "states", "*", "state"))
	if len(states) != 1 {
		t.Fatalf("saved states: %v", states)
	}
	spec := testSpec()
	spec.Workdir = "/elsewhere/deep"
	start := time.Now()
	second := newTestMachine(t, f, spec)
	restoreTime := time.Since(start)
	if !second.Restored() {
		t.Fatal("the second machine booted cold")
	}
	t.Logf("restore to ready: %v", restoreTime)

	r := run(t, second, machine.Command{Argv: []string{"sh", "-c", "pwd; date +%s; head -c 16 /dev/urandom | od -An -tx1"}})
	lines := strings.Split(strings.TrimSpace(string(r.Stdout)), "\n")
	if len(lines) < 3 || lines[0] != "/elsewhere/deep" {
		t.Fatalf("restored machine: %q %q", r.Stdout, r.Stderr)
	}
	r1 := run(t, first, machine.Command{Argv: []string{"sh", "-c", "head -c 16 /dev/urandom | od -An -tx1"}})
	if strings.TrimSpace(string(r1.Stdout)) == strings.TrimSpace(lines[2]) {
		t.Fatal("two restored machines produce the same random bytes")
	}
	var guestNow int64
	for _, c := range lines[1] {
		guestNow = guestNow*10 + int64(c-'0')
	}
	if d := guestNow - time.Now().Unix(); d < -5 || d > 5 {
		t.Fatalf("restored clock is %d s off", d)
	}
	// Independent disks: a write in one is not seen in the other or later.
	run(t, first, sh("echo one > /srv/data.txt"))
	if r := run(t, second, machine.Command{Argv: []string{"cat", "/srv/data.txt"}}); string(r.Stdout) != "image data\n" {
		t.Fatalf("second sees %q", r.Stdout)
	}
	// Command timeouts still keep a restored machine.
	tr := run(t, second, machine.Command{Argv: []string{"sleep", "100"}, Timeout: 300 * time.Millisecond})
	if tr.Reason != machine.TimedOut {
		t.Fatalf("got %+v", tr)
	}

	// A state that cannot be restored is dropped and the machine boots.
	os.WriteFile(states[0], []byte("garbage"), 0o644)
	third := newTestMachine(t, f, testSpec())
	if third.Restored() {
		t.Fatal("restored from garbage")
	}
	if r := run(t, third, machine.Command{Argv: []string{"echo", "cold"}}); string(r.Stdout) != "cold\n" {
		t.Fatalf("fallback machine: %q", r.Stdout)
	}
	if _, err := os.Stat(states[0]); !os.IsNotExist(err) {
		t.Fatalf("the broken state was kept: %v", err)
	}
}
