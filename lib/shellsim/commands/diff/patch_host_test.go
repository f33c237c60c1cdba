package diff

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// TestPatchAgainstHost applies random unified diffs to drifted and
// slightly edited targets with both ShellSim's patch and the host's GNU
// patch, comparing messages, status and result. Opt-in (PATCH_RANDOM=1).
func TestPatchAgainstHost(t *testing.T) {
	if os.Getenv("PATCH_RANDOM") == "" {
		t.Skip()
	}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(3))
	gen := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("line %c%d\n", 'a'+r.Intn(8), r.Intn(8))
		}
		return out
	}
	bad := 0
	for i := 0; i < 500; i++ {
		a := gen(5 + r.Intn(60))
		b := append([]string(nil), a...)
		for k := 0; k < 1+r.Intn(4); k++ {
			p := r.Intn(len(b) + 1)
			switch r.Intn(3) {
			case 0:
				if p < len(b) {
					b = append(b[:p], b[p+1:]...)
				}
			case 1:
				b = append(b[:p], append(gen(1+r.Intn(3)), b[p:]...)...)
			default:
				if p < len(b) {
					b[p] = "changed\n"
				}
			}
		}
		A, B := strings.Join(a, ""), strings.Join(b, "")
		e := commandtest.New(t, Commands())
		e.WriteFile("a/f.txt", A)
		e.WriteFile("b/f.txt", B)
		patch, _, st := e.Run([]string{"diff", "-u", "a/f.txt", "b/f.txt"}, "")
		if st != 1 {
			continue
		}
		// Drift the target: lines added at the top, and sometimes a context
		// line edited so that fuzz is needed (or the hunk fails).
		target := append(gen(r.Intn(5)), a...)
		if r.Intn(3) == 0 {
			p := r.Intn(len(target))
			target[p] = "edited\n"
		}
		T := strings.Join(target, "")
		e.WriteFile("f.txt", T)
		got, gotErr, gotSt := e.Run([]string{"patch", "-p1"}, patch)
		os.WriteFile(dir+"/f.txt", []byte(T), 0o644)
		os.Remove(dir + "/f.txt.rej")
		os.Remove(dir + "/f.txt.orig")
		cmd := exec.Command("patch", "-p1", "--no-backup-if-mismatch")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(patch)
		wantB, _ := cmd.Output()
		wantSt := cmd.ProcessState.ExitCode()
		want := strings.ReplaceAll(string(wantB), " -- saving rejects to file f.txt.rej", " -- rejects not saved (no file was changed)")
		res, _ := os.ReadFile(dir + "/f.txt")
		gotRes := e.ReadFile("f.txt")
		if wantSt != 0 {
			res = []byte(T) // ShellSim is atomic: nothing changes on failure
		}
		if got != want || gotSt != wantSt || gotRes != string(res) {
			bad++
			if bad <= 3 {
				t.Errorf("case %d:\npatch:\n%s\ntarget:\n%s\ngot %d %q %q\nwant %d %q", i, patch, T, gotSt, got, gotErr, wantSt, want)
			}
		}
	}
	t.Logf("mismatches: %d", bad)
}
