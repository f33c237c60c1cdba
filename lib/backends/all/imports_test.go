package all

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const backendsPath = "github.com/shellbox/shellbox/lib/backends/"

// TestBackendsIndependent: no backend depends on another, in its code or
// its tests (a shared piece belongs in a package outside lib/backends).
func TestBackendsIndependent(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	var backends []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "all" {
			backends = append(backends, e.Name())
		}
	}
	if len(backends) < 4 {
		t.Fatalf("found only %v under lib/backends", backends)
	}
	for _, b := range backends {
		out, err := exec.Command(goTool, "list", "-deps", "-test", "-f", "{{.ImportPath}}", backendsPath+b+"/...").Output()
		if err != nil {
			t.Fatalf("go list %s: %v", b, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if other := backendOf(line); other != "" && other != b {
				t.Errorf("backend %s depends on backend %s (%s)", b, other, line)
			}
		}
	}
}

// backendOf names the backend a package of "go list -deps -test" belongs
// to ("docker" for ".../lib/backends/docker_test [.../docker.test]"), or
// "".
func backendOf(listed string) string {
	path, _, _ := strings.Cut(listed, " ")
	rest, ok := strings.CutPrefix(strings.TrimSuffix(path, ".test"), backendsPath)
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	name = strings.TrimSuffix(name, "_test")
	if name == "all" {
		return ""
	}
	return name
}
