// Package remotetest holds what the remote backends' tests share: a cached
// Python virtual environment with a service's official client, to check
// our servers against.
package remotetest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// MarinIrisVersion is the marin-iris wheel the Iris tests check against
// (the one lib/backends/iris/irispb is generated from).
const MarinIrisVersion = "0.2.227.dev40316220070"

// Venv returns the python of a virtual environment named name under the
// user's cache directory, made once (under a lock, so parallel test
// binaries share it) by running each install as "<python> -m pip install
// -q <args>". python is the interpreter to make it with ("" : python3).
// When the environment variable env names an interpreter, that one is
// used instead and nothing is installed.
func Venv(t testing.TB, env, name, python string, installs ...[]string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "shellbox", name)
	py := filepath.Join(dir, "bin", "python")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(dir, ".shellbox-ready")
	if _, err := os.Stat(ready); err == nil {
		return py
	}
	os.RemoveAll(dir)
	if python == "" {
		python = "python3"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	steps := [][]string{{python, "-m", "venv", dir}}
	for _, args := range installs {
		steps = append(steps, append([]string{py, "-m", "pip", "install", "-q"}, args...))
	}
	for _, argv := range steps {
		if out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			t.Fatalf("making the %s environment (%s): %v\n%s", name, strings.Join(argv, " "), err, out)
		}
	}
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return py
}

// Python312 is a Python >= 3.12 as the repository's .ci/python312.sh finds
// (or builds) it.
func Python312(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ".ci", "python312.sh")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no .ci/python312.sh above the test's directory")
		}
		dir = parent
	}
	out, err := exec.Command("bash", filepath.Join(dir, ".ci", "python312.sh")).Output()
	if err != nil {
		t.Fatalf(".ci/python312.sh: %v", err)
	}
	return strings.TrimSpace(string(out))
}
