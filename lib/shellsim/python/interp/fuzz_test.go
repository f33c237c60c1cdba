package interp_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/python"
)

func runPy(t testing.TB, src string, fuel int64) (stdout, stderr string, status int) {
	e := commandtest.New(t, python.Commands())
	e.Sys.Fuel = fuel
	e.Sys.MemLimit = 16 << 20
	return e.Run([]string{"python3", "-c", src}, "")
}

// FuzzRun: whatever the source, the interpreter returns (no Go panic, no
// hang past its fuel) and reports an exit status.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("../testdata/corpus/*.py")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	for _, s := range []string{"x=[1]\nx.append(x)\nprint(x)", "def f():\n yield f()\nlist(f())", "class A:\n def __eq__(s,o): return s==o\nA()==A()",
		"d={}\nd[d.__class__]=1\nprint(d)", "import sys\nsys.setrecursionlimit(10**9)", "print(f'{1:{2}{3}}')", "a=b=c=[]\na+=a*2**20"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		_, _, status := runPy(t, src, 200000)
		if status < 0 || status > 255 {
			t.Fatalf("status %d", status)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Fatalf("took %v", d)
		}
	})
}
