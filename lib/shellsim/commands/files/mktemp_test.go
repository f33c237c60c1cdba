package files

import (
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestMktemp(t *testing.T) {
	e := commandtest.New(t, Commands(), testStubs)
	out, errs, st := e.Run([]string{"mktemp"}, "")
	if st != 0 || errs != "" || !strings.HasPrefix(out, "/tmp/tmp.") || len(out) != len("/tmp/tmp.XXXXXXXXXX\n") {
		t.Fatalf("mktemp: %q %q %d", out, errs, st)
	}
	name := strings.TrimSpace(out)
	if fi, err := e.FS.Stat(name); err != nil || fi.Mode.Perm() != 0o600 {
		t.Errorf("stat %s: %v %v", name, fi.Mode, err)
	}
	// Same virtual time and pid: a second call must still give a new name.
	out2, _, _ := e.Run([]string{"mktemp"}, "")
	if out2 == out {
		t.Errorf("second name repeats %q", out2)
	}
	// Reproducible across fresh environments.
	e2 := commandtest.New(t, Commands(), testStubs)
	if again, _, _ := e2.Run([]string{"mktemp"}, ""); again != out {
		t.Errorf("not reproducible: %q vs %q", again, out)
	}
	out, _, st = e.Run([]string{"mktemp", "-d", "-p", "/work", "job.XXXX"}, "")
	if fi, err := e.FS.Stat(strings.TrimSpace(out)); st != 0 || err != nil || !fi.IsDir() || fi.Mode.Perm() != 0o700 || !strings.HasPrefix(out, "/work/job.") {
		t.Errorf("-d -p: %q %v", out, err)
	}
	out, _, _ = e.Run([]string{"mktemp", "-u", "x.XXX"}, "")
	if e.Exists(strings.TrimSpace(out)) || !strings.HasPrefix(out, "x.") {
		t.Errorf("-u created or misnamed %q", out)
	}
	_, errs, st = e.Run([]string{"mktemp", "X"}, "")
	if errs != "mktemp: too few X's in template 'X'\n" || st != 1 {
		t.Errorf("few X: %q %d", errs, st)
	}
}
