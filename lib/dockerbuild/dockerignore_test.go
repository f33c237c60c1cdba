package dockerbuild

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/moby/patternmatcher"
)

// contextEntries tars dir with the ignore rules found for dockerfile and
// lists the entry names.
func contextEntries(t *testing.T, dir, dockerfile, dfName string) []string {
	t.Helper()
	excludes, err := readDockerignore(dir, dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := patternmatcher.New(keepBuildFiles(excludes, dfName, false))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeBuildContext(context.Background(), &buf, dir, pm, "", nil); err != nil {
		t.Fatal(err)
	}
	var names []string
	tr := tar.NewReader(&buf)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, hdr.Name)
	}
	slices.Sort(names)
	return names
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBuildContextIgnore: the tar sent to the daemon leaves out what
// .dockerignore excludes, keeps "!" re-inclusions (also below an excluded
// directory), always keeps the Dockerfile and .dockerignore, and prefers
// <Dockerfile>.dockerignore when it exists.
func TestBuildContextIgnore(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".dockerignore": "# comment\n\n*.tmp\n/secret.txt\nlogs\n!logs/keep.log\nnode_modules/\n**/*.bak\nDockerfile\n.dockerignore\n",
		"Dockerfile":    "FROM scratch\n",
		"a.txt":         "a", "b.tmp": "b", "secret.txt": "s", "sub/secret.txt": "kept: the pattern is anchored",
		"sub/c.bak": "c", "sub/d.txt": "d", "logs/x.log": "x", "logs/keep.log": "k",
		"node_modules/m/index.js": "m",
		"build/App.Dockerfile":    "FROM scratch\n", "build/App.Dockerfile.dockerignore": "a.txt\nsub\n",
	})
	got := contextEntries(t, dir, filepath.Join(dir, "Dockerfile"), "Dockerfile")
	want := []string{".dockerignore", "Dockerfile", "a.txt", "build/", "build/App.Dockerfile", "build/App.Dockerfile.dockerignore",
		"logs/keep.log", "sub/", "sub/d.txt", "sub/secret.txt"}
	if !slices.Equal(got, want) {
		t.Fatalf("context\n got %q\nwant %q", got, want)
	}
	// The per-Dockerfile ignore file replaces .dockerignore.
	got = contextEntries(t, dir, filepath.Join(dir, "build/App.Dockerfile"), "build/App.Dockerfile")
	for _, name := range []string{"a.txt", "sub/", "sub/d.txt"} {
		if slices.Contains(got, name) {
			t.Fatalf("%s sent despite App.Dockerfile.dockerignore: %q", name, got)
		}
	}
	if !slices.Contains(got, "b.tmp") || !slices.Contains(got, "secret.txt") || !slices.Contains(got, "build/App.Dockerfile") {
		t.Fatalf("per-Dockerfile ignore file: %q", got)
	}
	// A malformed pattern is reported, not ignored.
	writeTree(t, dir, map[string]string{".dockerignore": "!\n"})
	excludes, err := readDockerignore(dir, filepath.Join(dir, "Dockerfile"))
	if err == nil {
		_, err = patternmatcher.New(excludes)
	}
	if err == nil || !strings.Contains(err.Error(), "exclusion") {
		t.Fatalf("malformed .dockerignore: %v", err)
	}
}
