// Package helperstest builds the repository's helper commands for tests, so
// that the helpers package (linked into the shared library) does not import
// testing.
package helperstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/shellbox/shellbox/lib/helpers"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// Build compiles the repository's helper commands (static, no cgo)
// once per test binary into one shared directory under the system temp
// directory (reused across runs, so tests that count temp dirs are not
// disturbed) and points helpers.Path at it.
// Tests of backends that need helpers call it first.
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..", "..")
		buildDir = filepath.Join(os.TempDir(), "shellbox-test-helpers")
		cmd := exec.Command("go", "build", "-o", buildDir+"/", "./cmd/shellbox-sandboxd", "./cmd/shellbox-relay", "./cmd/shellbox-probe")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = &buildError{strings.TrimSpace(string(out)), err}
		}
	})
	if buildErr != nil {
		t.Fatalf("building helpers: %v", buildErr)
	}
	helpers.SetDir(buildDir)
	return buildDir
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }
