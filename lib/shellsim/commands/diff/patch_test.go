package diff

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// GNU patch writes the files whose hunks applied and saves rejects; ShellSim
// changes nothing when any hunk fails.
func TestPatchAtomic(t *testing.T) {
	e := commandtest.New(t, Commands())
	e.WriteFile("ok.txt", "a\nb\n")
	e.WriteFile("bad.txt", "x\ny\n")
	p := "--- a/ok.txt\n+++ b/ok.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n" +
		"--- a/bad.txt\n+++ b/bad.txt\n@@ -1,2 +1,2 @@\n q\n-r\n+R\n"
	out, errOut, st := e.Run([]string{"patch", "-p1"}, p)
	want := "patching file ok.txt\npatching file bad.txt\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- rejects not saved (no file was changed)\n"
	if out != want || errOut != "" || st != 1 {
		t.Errorf("got %q %q %d", out, errOut, st)
	}
	if got := e.ReadFile("ok.txt"); got != "a\nb\n" {
		t.Errorf("ok.txt changed: %q", got)
	}
	if e.Exists("bad.txt.rej") || e.Exists("ok.txt.orig") {
		t.Error("reject or backup file written")
	}
	if len(e.Sys.Partials) != 1 || e.Sys.Partials[0] != "patch .rej" {
		t.Errorf("partials = %q", e.Sys.Partials)
	}
}

func TestDiffFuel(t *testing.T) {
	e := commandtest.New(t, Commands())
	var a, b string
	for i := 0; i < 2000; i++ {
		a += "x\n"
		b += "y\n"
	}
	e.WriteFile("a", a)
	e.WriteFile("b", b)
	e.Sys.Fuel = 5000
	if _, _, st := e.Run([]string{"diff", "a", "b"}, ""); st != 2 {
		t.Errorf("status %d, want 2 when fuel runs out", st)
	}
}
