package qemu

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
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
	for _, ram := range []string{RAMFile, RAMStream} {
		t.Run(ram, func(t *testing.T) { testRestore(t, ram) })
	}
}

func testRestore(t *testing.T, ram string) {
	cache := t.TempDir()
	on := true
	f := newTestFactory(t, Options{CacheDir: cache, Restore: &on, RestoreRAM: ram})
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
	// Independent disks and memory: a write in one is not seen in the
	// other or later, and the saved RAM file never changes.
	ramFile := filepath.Join(filepath.Dir(states[0]), "ram")
	before := fileSum(t, ramFile)
	run(t, first, sh("echo one > /srv/data.txt; echo mine > /tmp/mark; head -c 20000000 /dev/urandom > /dev/shm/big"))
	if r := run(t, second, sh("cat /srv/data.txt; cat /tmp/mark")); string(r.Stdout) != "image data\n" {
		t.Fatalf("second sees %q", r.Stdout)
	}
	if after := fileSum(t, ramFile); after != before {
		t.Fatal("a restored machine wrote to the saved RAM file")
	}
	if st, err := os.Stat(states[0]); ram == RAMFile && (before == "" || err != nil || st.Size() > 8<<20) {
		t.Fatalf("file-backed RAM: RAM file present %v, device state %v bytes (%v)", before != "", st.Size(), err)
	} else if ram == RAMStream && before != "" {
		t.Fatal("stream RAM left a RAM file")
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

// fileSum is the SHA-256 of a file, "" when it does not exist.
func fileSum(t *testing.T, p string) string {
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
