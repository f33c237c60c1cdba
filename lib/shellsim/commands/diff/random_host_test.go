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

// TestRandomAgainstHost compares diff's output with the host's GNU diff on
// random file pairs full of repeated lines (where tie-breaking matters).
// It is opt-in (DIFF_RANDOM=1) because it runs the host tool.
func TestRandomAgainstHost(t *testing.T) {
	if os.Getenv("DIFF_RANDOM") == "" {
		t.Skip()
	}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(2))
	maxN, alpha := 300, 20
	bad := 0
	for i := 0; i < 1500; i++ {
		gen := func() string {
			n := r.Intn(maxN) + 1
			var b strings.Builder
			for j := 0; j < n; j++ {
				fmt.Fprintf(&b, "%c\n", 'a'+r.Intn(1+r.Intn(alpha)))
			}
			return b.String()
		}
		a := gen()
		bb := a
		if r.Intn(2) == 0 {
			bb = gen()
		} else {
			lines := strings.SplitAfter(a, "\n")
			for k := 0; k < 1+r.Intn(5); k++ {
				if len(lines) == 0 {
					break
				}
				p := r.Intn(len(lines))
				switch r.Intn(3) {
				case 0:
					lines = append(lines[:p], lines[min(p+1, len(lines)):]...)
				case 1:
					lines = append(lines[:p], append([]string{fmt.Sprintf("%c\n", 'a'+r.Intn(5))}, lines[p:]...)...)
				default:
					lines[p] = fmt.Sprintf("%c\n", 'a'+r.Intn(5))
				}
			}
			bb = strings.Join(lines, "")
		}
		os.WriteFile(dir+"/ra", []byte(a), 0o644)
		os.WriteFile(dir+"/rb", []byte(bb), 0o644)
		for _, flag := range []string{"--normal", "-u", "-U1", "-U0", "-c", "-C1"} {
			want, _ := exec.Command("diff", flag, dir+"/ra", dir+"/rb").Output()
			e := commandtest.New(t, Commands())
			e.WriteFile("ra", a)
			e.WriteFile("rb", bb)
			got, _, _ := e.Run([]string{"diff", flag, "ra", "rb"}, "")
			w := string(want)
			if flag != "--normal" && len(w) > 0 {
				mark := "@@"
				if strings.HasPrefix(flag, "-c") || strings.HasPrefix(flag, "-C") {
					mark = "***************"
				}
				w = w[strings.Index(w, mark):]
				if len(got) > 0 {
					got = got[strings.Index(got, mark):]
				}
			}
			if got != w {
				bad++
				if bad < 4 {
					t.Errorf("mismatch %s\nA=%q\nB=%q\ngot:\n%s\nwant:\n%s", flag, a, bb, got, w)
				}
			}
		}
	}
	t.Logf("mismatches: %d / 9000", bad)
}
