package transfer

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

type entry struct {
	name, link string
	typ        byte
	body       string
}

func archive(t *testing.T, entries ...entry) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Linkname: e.link, Typeflag: e.typ, Mode: 0o755, Size: int64(len(e.body))}
		if e.typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.body))
	}
	tw.Close()
	return &buf
}

func TestExtractRefusesEscapes(t *testing.T) {
	ctx := context.Background()
	root := entry{name: "./", typ: tar.TypeDir}
	outside := t.TempDir()
	for name, entries := range map[string][]entry{
		"dotdot":        {root, {name: "../x", typ: tar.TypeReg, body: "x"}},
		"nested dotdot": {root, {name: "a/../../x", typ: tar.TypeReg, body: "x"}},
		"absolute":      {root, {name: "/x", typ: tar.TypeReg, body: "x"}},
		"abs link":      {root, {name: "l", link: "/etc", typ: tar.TypeSymlink}},
		"up link":       {root, {name: "a/l", link: "../../etc", typ: tar.TypeSymlink}},
		"hard link":     {root, {name: "h", link: "../x", typ: tar.TypeLink}},
		"through link":  {root, {name: "planted/x", typ: tar.TypeReg, body: "x"}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.Symlink(outside, filepath.Join(dir, "planted"))
			err := Extract(ctx, archive(t, entries...), dir, ExtractOptions{})
			var pe *machine.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v", err)
			}
			if list, _ := os.ReadDir(outside); len(list) != 0 {
				t.Fatalf("wrote outside: %v", list)
			}
		})
	}
}

func TestRoundTripAndLimits(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "a", "b"), 0o700)
	os.WriteFile(filepath.Join(src, "a", "b", "f"), []byte("hello"), 0o640)
	os.Symlink("b/f", filepath.Join(src, "a", "l"))
	var buf bytes.Buffer
	if err := WriteTar(ctx, &buf, src); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "dst")
	if err := Extract(ctx, bytes.NewReader(buf.Bytes()), dst, ExtractOptions{}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dst, "a", "l")); string(data) != "hello" {
		t.Fatalf("got %q", data)
	}
	if st, _ := os.Stat(filepath.Join(dst, "a", "b")); st.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", st.Mode())
	}
	var lim *machine.DownloadLimitExceeded
	if err := Extract(ctx, bytes.NewReader(buf.Bytes()), t.TempDir(), ExtractOptions{MaxBytes: 4}); !errors.As(err, &lim) {
		t.Fatalf("limit: %v", err)
	}
	if err := Check(ctx, filepath.Join(src, "missing")); err == nil {
		t.Fatal("missing source accepted")
	}
	os.Symlink("/etc/passwd", filepath.Join(src, "out"))
	if err := Check(ctx, src); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Fatalf("link out: %v", err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	target := filepath.Join(dir, "t")
	os.WriteFile(target, []byte("old"), 0o644)
	var lim *machine.DownloadLimitExceeded
	if err := WriteFileAtomic(ctx, strings.NewReader("12345"), target, 0o600, 4); !errors.As(err, &lim) {
		t.Fatalf("got %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "old" {
		t.Fatalf("touched: %q", data)
	}
	if err := WriteFileAtomic(ctx, strings.NewReader("1234"), target, 0o600, 4); err != nil {
		t.Fatal(err)
	}
	if list, _ := os.ReadDir(dir); len(list) != 1 {
		t.Fatalf("left %v", list)
	}
}
