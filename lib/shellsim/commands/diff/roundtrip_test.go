package diff

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// TestDiffPatchRoundTrip checks that patch applies what diff -u produces,
// and -R takes it back. (Drifted targets, where GNU anchors hunks at the
// file ends, are compared with the host's patch in patch_host_test.go.)
func TestDiffPatchRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	gen := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("line %c%d\n", 'a'+r.Intn(6), r.Intn(4))
		}
		return out
	}
	for i := 0; i < 300; i++ {
		a := gen(1 + r.Intn(60))
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
		if r.Intn(5) == 0 {
			B = strings.TrimSuffix(B, "\n")
		}
		e := commandtest.New(t, Commands())
		e.WriteFile("a/f.txt", A)
		e.WriteFile("b/f.txt", B)
		patch, _, st := e.Run([]string{"diff", "-u", "a/f.txt", "b/f.txt"}, "")
		if st > 1 {
			t.Fatalf("diff failed")
		}
		if st == 0 {
			continue
		}
		drift := ""
		e.WriteFile("f.txt", drift+A)
		out, errOut, st := e.Run([]string{"patch", "-p1"}, patch)
		if st != 0 {
			t.Fatalf("case %d: patch failed: %q %q\npatch:\n%s", i, out, errOut, patch)
		}
		if got := e.ReadFile("f.txt"); got != drift+B {
			t.Fatalf("case %d: got %q, want %q\npatch:\n%s", i, got, drift+B, patch)
		}
		// And back again with -R.
		if _, errOut, st := e.Run([]string{"patch", "-R", "-p1"}, patch); st != 0 {
			t.Fatalf("case %d: patch -R failed: %q", i, errOut)
		}
		if got := e.ReadFile("f.txt"); got != drift+A {
			t.Fatalf("case %d: -R got %q, want %q", i, got, drift+A)
		}
	}
}
