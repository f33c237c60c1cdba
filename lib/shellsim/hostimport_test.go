package shellsim

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

func TestMountTrustedImport(t *testing.T) {
	host := t.TempDir()
	os.MkdirAll(filepath.Join(host, "src", ".git"), 0o755)
	os.WriteFile(filepath.Join(host, "src", "run.sh"), []byte("echo run\n"), 0o750)
	os.WriteFile(filepath.Join(host, "src", ".git", "HEAD"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(host, "top"), []byte("top"), 0o600)
	e := NewEnvironment(DefaultLimits())
	res, err := e.Mount(host, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 2 || len(res.SkippedDirectories) != 1 || res.SkippedDirectories[0] != "src/.git" {
		t.Fatalf("%+v", res)
	}
	r := e.Run(context.Background(), "sh src/run.sh; stat -c '%a %n' src/run.sh top; test -e src/.git || echo skipped", nil)
	if string(r.Stdout) != "run\n750 src/run.sh\n600 top\nskipped\n" {
		t.Fatalf("%q %q", r.Stdout, r.Stderr)
	}
	// The host is not reachable afterwards: later host changes are not seen.
	os.WriteFile(filepath.Join(host, "top"), []byte("changed"), 0o600)
	if got, _ := e.ReadFile("/work/top"); string(got) != "top" {
		t.Fatal(string(got))
	}

	// All or nothing: a symlink, a special file or the disk limit leaves
	// /work as it was, replaced files included.
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "top"), []byte("new"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(bad, "zlink"))
	var pe *machine.PathError
	if _, err := e.Mount(bad, ""); !errors.As(err, &pe) || !strings.Contains(err.Error(), "symbolic") {
		t.Fatalf("symlink: %v", err)
	}
	small := NewEnvironment(Limits{CPU: 1 << 30, Memory: 64 << 20, Disk: 200 << 10, Output: 1 << 20})
	small.WriteFile("/work/keep", []byte("keep"), 0o644)
	big := t.TempDir()
	os.WriteFile(filepath.Join(big, "a"), make([]byte, 100<<10), 0o644)
	os.WriteFile(filepath.Join(big, "keep"), []byte("replaced"), 0o644)
	os.WriteFile(filepath.Join(big, "z"), make([]byte, 99<<10), 0o644)
	if _, err := small.Mount(big, ""); err == nil {
		t.Fatal("over the disk limit")
	}
	if got, _ := small.ReadFile("/work/keep"); string(got) != "keep" {
		t.Fatalf("replaced file not restored: %q", got)
	}
	if _, err := small.ReadFile("/work/a"); err == nil {
		t.Fatal("partial import left behind")
	}
	if _, err := small.Mount(filepath.Join(big, "missing"), ""); !errors.As(err, &pe) || !pe.NotFound {
		t.Fatalf("missing: %v", err)
	}
	huge := t.TempDir()
	os.WriteFile(filepath.Join(huge, "h"), make([]byte, 300<<10), 0o644)
	if _, err := small.Mount(huge, ""); err == nil || !strings.Contains(err.Error(), "disk limit") {
		t.Fatalf("huge: %v", err)
	}
}
