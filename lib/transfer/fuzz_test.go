package transfer

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"testing"
)

// FuzzExtract feeds arbitrary archives to Extract: nothing may be written
// outside the target, nothing special may be created inside it, and a
// failed extraction leaves no target behind. The seeds are the hostile
// archives of the tests above; `go test` runs only them.
func FuzzExtract(f *testing.F) {
	for _, entries := range [][]entry{
		{{name: ".", typ: tar.TypeReg, body: "file", mode: 0o6755}},
		{dirRoot, {name: "a/", typ: tar.TypeDir, mode: 0o2755}, {name: "a/f", typ: tar.TypeReg, body: "x"}, {name: "h", link: "a/f", typ: tar.TypeLink}},
		{dirRoot, {name: "l", link: "../outside", typ: tar.TypeSymlink}, {name: "l/sentinel", typ: tar.TypeReg, body: "pwned"}},
		{dirRoot, {name: "l", link: ".", typ: tar.TypeSymlink}, {name: "l2", link: "l/..", typ: tar.TypeSymlink}, {name: "l2/outside/x", typ: tar.TypeReg, body: "pwned"}},
		{dirRoot, {name: "h", link: "../outside/sentinel", typ: tar.TypeLink}},
		{dirRoot, {name: "a/", typ: tar.TypeDir}, {name: "a/up", link: "..", typ: tar.TypeSymlink}, {name: "h", link: "a/up", typ: tar.TypeLink}},
		{dirRoot, {name: "null", typ: tar.TypeChar}, {name: "fifo", typ: tar.TypeFifo}},
		{dirRoot, {name: "big", typ: tar.TypeReg, size: 1 << 40}},
	} {
		f.Add(archive(f, entries...).Bytes())
	}
	for _, name := range []string{"sparse-dir-pax", "sparse-dir-gnu", "sparse-file-pax"} {
		f.Add(sparseArchive(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newScene(t)
		err := Extract(context.Background(), bytes.NewReader(data), s.target, ExtractOptions{MaxBytes: 1 << 20, Bounded: true})
		if err != nil {
			if _, serr := os.Lstat(s.target); !errors.Is(serr, fs.ErrNotExist) {
				t.Fatalf("failed (%v) and left the target behind", err)
			}
		}
		s.check(t)
	})
}
