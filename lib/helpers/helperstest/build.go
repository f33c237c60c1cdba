// Package helperstest builds the repository's helper commands for tests, so
// that the helpers package (linked into the shared library) does not import
// testing.
package helperstest

import (
	"crypto/sha256"
	"encoding/hex"
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
// once per test binary into Dir (reused across runs, so tests that count
// temp dirs are not disturbed) and points helpers.Path at it.
// Tests of backends that need helpers call it first.
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir = Dir()
		cmd := exec.Command("go", "build", "-o", buildDir+"/", "./cmd/shellbox-sandboxd", "./cmd/shellbox-relay", "./cmd/shellbox-probe")
		cmd.Dir = root()
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

// Dir is where Build puts the helpers: one directory per checkout, named
// after its path. A directory shared by every checkout on a machine made
// a test run the helper another checkout's tests had just built (a CI run
// beside work in progress), whose protocol may differ from the client's.
func Dir() string {
	sum := sha256.Sum256([]byte(root()))
	return filepath.Join(os.TempDir(), "shellbox-test-helpers-"+hex.EncodeToString(sum[:6]))
}

// root is the repository's root directory.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }
