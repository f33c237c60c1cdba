package archive

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// TestHostReadsOurArchives checks that the host's GNU tar, gzip and
// Info-ZIP unzip accept what ShellSim writes. Opt-in (ARCHIVE_HOST=1).
func TestHostReadsOurArchives(t *testing.T) {
	if os.Getenv("ARCHIVE_HOST") == "" {
		t.Skip()
	}
	dir := t.TempDir()
	e := commandtest.New(t, Commands())
	e.WriteFile("src/a.txt", "hello\n")
	e.WriteFile("src/sub/b.bin", strings.Repeat("\x00\x01binary", 500))
	e.FS.Symlink("a.txt", "/work/src/link")
	for _, args := range [][]string{{"tar", "czf", "x.tgz", "src"}, {"zip", "-qr", "x.zip", "src"}, {"gzip", "-k", "src/sub/b.bin"}} {
		if _, errOut, st := e.Run(args, ""); st != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	for name, check := range map[string][]string{
		"x.tgz":            {"tar", "tvzf"},
		"x.zip":            {"unzip", "-tq"},
		"src/sub/b.bin.gz": {"gzip", "-tv"},
	} {
		p := dir + "/" + strings.ReplaceAll(name, "/", "_")
		os.WriteFile(p, []byte(e.ReadFile(name)), 0o644)
		out, err := exec.Command(check[0], append(check[1:], p)...).CombinedOutput()
		if err != nil {
			t.Errorf("%s rejects our %s: %v\n%s", check[0], name, err, out)
		} else {
			t.Logf("%s:\n%s", name, out)
		}
	}
}
