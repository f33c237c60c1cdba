package docker_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// TestDockerignoreBuild: files .dockerignore excludes are not in the built
// image, a "!" pattern re-includes a file of an excluded directory, and a
// Dockerfile that .dockerignore names is still used for the build.
func TestDockerignoreBuild(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, data := range map[string]string{
		".dockerignore": "*.tmp\n/secret.txt\nlogs\n!logs/keep.log\nnode_modules/\nDockerfile\n",
		"Dockerfile":    "FROM " + dockertest.BusyboxImage + "\nCOPY . /ctx/\n",
		"a.txt":         "a\n", "b.tmp": "b\n", "secret.txt": "top secret\n", "sub/secret.txt": "anchored\n",
		"logs/x.log": "x\n", "logs/keep.log": "kept\n", "node_modules/m/index.js": "m\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := dockertest.NewMachine(t, factory, func(s *machine.Spec) {
		s.Source = machine.DockerfileSource{Context: dir, Dockerfile: filepath.Join(dir, "Dockerfile")}
	})
	r := dockertest.Sh(t, m, "cd /ctx && find . | sort && cat logs/keep.log")
	want := ".\n./.dockerignore\n./a.txt\n./logs\n./logs/keep.log\n./sub\n./sub/secret.txt\nkept\n"
	if string(r.Stdout) != want || dockertest.Code(r) != 0 {
		t.Fatalf("built image holds\n%s(stderr %q)\nwant\n%s", r.Stdout, r.Stderr, want)
	}
}
