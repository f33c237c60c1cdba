package transfer

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

type entry struct {
	name, link string
	typ        byte
	body       string
	mode       int64 // 0: 0755
	size       int64 // header size when it differs from len(body)
}

func archive(t testing.TB, entries ...entry) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		mode := e.mode
		if mode == 0 {
			mode = 0o755
		}
		h := &tar.Header{Name: e.name, Linkname: e.link, Typeflag: e.typ, Mode: mode, Size: int64(len(e.body))}
		if e.typ != tar.TypeReg {
			h.Size = 0
		}
		if e.size != 0 {
			h.Size = e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.body))
	}
	if len(entries) > 0 && entries[len(entries)-1].size == 0 {
		tw.Close()
	}
	return &buf
}

var dirRoot = entry{name: "./", typ: tar.TypeDir}

// scene is a host directory holding a sentinel directory beside the
// download target; check says the host outside the target is unchanged and
// the target holds nothing dangerous.
type scene struct {
	base, outside, target string
}

func newScene(t testing.TB) scene {
	base := t.TempDir()
	s := scene{base, filepath.Join(base, "outside"), filepath.Join(base, "target")}
	if err := os.Mkdir(s.outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.outside, "sentinel"), []byte("untouched"), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s scene) check(t testing.TB) {
	t.Helper()
	list, _ := os.ReadDir(s.outside)
	if len(list) != 1 || list[0].Name() != "sentinel" {
		t.Fatalf("the outside directory changed: %v", list)
	}
	if data, _ := os.ReadFile(filepath.Join(s.outside, "sentinel")); string(data) != "untouched" {
		t.Fatalf("sentinel written: %q", data)
	}
	if st, _ := os.Lstat(filepath.Join(s.outside, "sentinel")); st.Sys().(*syscall.Stat_t).Nlink != 1 {
		t.Fatal("the sentinel was hard-linked")
	}
	list, _ = os.ReadDir(s.base)
	for _, e := range list {
		if e.Name() != "outside" && e.Name() != "target" {
			t.Fatalf("left behind beside the target: %s", e.Name())
		}
	}
	links := map[uint64]int{}
	filepath.WalkDir(s.target, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		st := info.Sys().(*syscall.Stat_t)
		if int(st.Uid) != os.Getuid() {
			t.Errorf("%s is owned by uid %d", p, st.Uid)
		}
		switch m := info.Mode(); {
		case m&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0:
			t.Errorf("%s has special bits: %v", p, m)
		case m&fs.ModeSymlink != 0:
			if real, err := filepath.EvalSymlinks(p); err == nil && real != s.target && !strings.HasPrefix(real, s.target+"/") {
				t.Errorf("%s resolves outside the target: %s", p, real)
			}
		case m.IsRegular():
			links[st.Ino]++ // compared with st.Nlink below, once every name is counted
		case !m.IsDir():
			t.Errorf("%s is a special file: %v", p, m)
		}
		if strings.HasPrefix(d.Name(), ".shellbox-download-") {
			t.Errorf("staging left behind: %s", p)
		}
		return nil
	})
	filepath.WalkDir(s.target, func(p string, d fs.DirEntry, err error) error {
		if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
			st := info.Sys().(*syscall.Stat_t)
			if int(st.Nlink) != links[st.Ino] {
				t.Errorf("%s has %d links, %d inside the target", p, st.Nlink, links[st.Ino])
			}
		}
		return nil
	})
}

func TestExtractRefusesEscapes(t *testing.T) {
	ctx := context.Background()
	for name, entries := range map[string][]entry{
		"dotdot":          {dirRoot, {name: "../x", typ: tar.TypeReg, body: "x"}},
		"nested dotdot":   {dirRoot, {name: "a/../../x", typ: tar.TypeReg, body: "x"}},
		"inner dotdot":    {dirRoot, {name: "a/", typ: tar.TypeDir}, {name: "a/../x", typ: tar.TypeReg, body: "x"}},
		"absolute":        {dirRoot, {name: "/x", typ: tar.TypeReg, body: "x"}},
		"dot entry":       {dirRoot, {name: ".", typ: tar.TypeSymlink, link: "../outside"}},
		"abs link":        {dirRoot, {name: "l", link: "/etc", typ: tar.TypeSymlink}},
		"up link":         {dirRoot, {name: "a/l", link: "../../etc", typ: tar.TypeSymlink}},
		"link then file":  {dirRoot, {name: "l", link: "../outside", typ: tar.TypeSymlink}, {name: "l/sentinel", typ: tar.TypeReg, body: "pwned"}},
		"abs then file":   {dirRoot, {name: "l", link: "/tmp", typ: tar.TypeSymlink}, {name: "l/x", typ: tar.TypeReg, body: "pwned"}},
		"hard link abs":   {dirRoot, {name: "h", link: "/etc/shadow", typ: tar.TypeLink}},
		"hard link up":    {dirRoot, {name: "h", link: "../outside/sentinel", typ: tar.TypeLink}},
		"hard link dots":  {dirRoot, {name: "h", link: "a/../../outside/sentinel", typ: tar.TypeLink}},
		"hard link fresh": {dirRoot, {name: "h", link: "nothing-yet", typ: tar.TypeLink}},
		// A lexical check passes "l2 -> l/..", which leaves the tree when l
		// is a link to "." (the kernel resolves l first).
		"dot link climb":  {dirRoot, {name: "l", link: ".", typ: tar.TypeSymlink}, {name: "l2", link: "l/..", typ: tar.TypeSymlink}, {name: "l2/outside/x", typ: tar.TypeReg, body: "pwned"}},
		"climb via link":  {dirRoot, {name: "a/", typ: tar.TypeDir}, {name: "l", link: "a", typ: tar.TypeSymlink}, {name: "l/x", link: "../..", typ: tar.TypeSymlink}},
		"file below link": {dirRoot, {name: "a/", typ: tar.TypeDir}, {name: "l", link: "a", typ: tar.TypeSymlink}, {name: "l/x", typ: tar.TypeReg, body: "x"}},
		// A hard link to a symbolic link would resolve from another directory.
		"hard link to link": {dirRoot, {name: "a/", typ: tar.TypeDir}, {name: "a/up", link: "..", typ: tar.TypeSymlink}, {name: "h", link: "a/up", typ: tar.TypeLink}},
		"link replaces dir": {dirRoot, {name: "a/", typ: tar.TypeDir}, {name: "a", link: "../outside", typ: tar.TypeSymlink}, {name: "a/x", typ: tar.TypeReg, body: "x"}},
	} {
		t.Run(name, func(t *testing.T) {
			s := newScene(t)
			err := Extract(ctx, archive(t, append(entries, entry{name: "late", typ: tar.TypeReg, body: "x"})...), s.target, ExtractOptions{})
			var pe *machine.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v", err)
			}
			if _, err := os.Lstat(s.target); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("a failed download left the target behind: %v", err)
			}
			s.check(t)
		})
	}
}

// An existing target is left exactly as it was when an archive is refused,
// and a planted link in it is replaced, never followed.
func TestExtractIntoExistingTarget(t *testing.T) {
	ctx := context.Background()
	s := newScene(t)
	os.Mkdir(s.target, 0o755)
	os.WriteFile(filepath.Join(s.target, "keep"), []byte("old"), 0o644)
	os.Symlink(s.outside, filepath.Join(s.target, "planted"))
	err := Extract(ctx, archive(t, dirRoot, entry{name: "keep", typ: tar.TypeReg, body: "new"}, entry{name: "bad", link: "/etc", typ: tar.TypeSymlink}), s.target, ExtractOptions{})
	if !errors.As(err, new(*machine.PathError)) {
		t.Fatalf("got %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(s.target, "keep")); string(data) != "old" {
		t.Fatalf("a refused archive changed the target: %q", data)
	}
	if list, _ := os.ReadDir(s.target); len(list) != 2 {
		t.Fatalf("left %v", list)
	}
	err = Extract(ctx, archive(t, dirRoot, entry{name: "planted/sentinel", typ: tar.TypeReg, body: "pwned"}, entry{name: "keep", typ: tar.TypeReg, body: "new"}), s.target, ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(filepath.Join(s.target, "planted")); err != nil || !st.IsDir() {
		t.Fatalf("planted: %v %v", st, err)
	}
	if data, _ := os.ReadFile(filepath.Join(s.target, "keep")); string(data) != "new" {
		t.Fatalf("keep: %q", data)
	}
	s.check(t)
	// The target itself as a link is refused.
	os.RemoveAll(s.target)
	os.Symlink(s.outside, s.target)
	if err := Extract(ctx, archive(t, dirRoot, entry{name: "x", typ: tar.TypeReg, body: "x"}), s.target, ExtractOptions{}); !errors.As(err, new(*machine.PathError)) {
		t.Fatalf("target link: %v", err)
	}
	// A file download replaces the link itself.
	if err := Extract(ctx, archive(t, entry{name: ".", typ: tar.TypeReg, body: "file"}), s.target, ExtractOptions{}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(s.target); !st.Mode().IsRegular() {
		t.Fatalf("target %v", st.Mode())
	}
	s.check(t)
}

func TestExtractStripsSpecialBitsAndSkipsDevices(t *testing.T) {
	ctx := context.Background()
	s := newScene(t)
	err := Extract(ctx, archive(t,
		entry{name: "./", typ: tar.TypeDir, mode: 0o3777},
		entry{name: "suid", typ: tar.TypeReg, body: "#!/bin/sh\n", mode: 0o6755},
		entry{name: "sgid-dir/", typ: tar.TypeDir, mode: 0o2775},
		entry{name: "sticky/", typ: tar.TypeDir, mode: 0o1777},
		entry{name: "null", typ: tar.TypeChar, mode: 0o666},
		entry{name: "sda", typ: tar.TypeBlock, mode: 0o666},
		entry{name: "fifo", typ: tar.TypeFifo, mode: 0o666},
		entry{name: "h", typ: tar.TypeLink, link: "suid"},
	), s.target, ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{".": fs.ModeDir | 0o777, "suid": 0o755, "h": 0o755, "sgid-dir": fs.ModeDir | 0o775, "sticky": fs.ModeDir | 0o777}
	got := map[string]fs.FileMode{}
	filepath.WalkDir(s.target, func(p string, d fs.DirEntry, err error) error {
		info, _ := d.Info()
		rel, _ := filepath.Rel(s.target, p)
		got[rel] = info.Mode()
		return nil
	})
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
	s.check(t)
	// A one-file archive too.
	file := filepath.Join(s.target, "f")
	if err := Extract(ctx, archive(t, entry{name: ".", typ: tar.TypeReg, body: "x", mode: 0o6755}), file, ExtractOptions{}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(file); st.Mode() != 0o755 {
		t.Fatalf("file mode %v", st.Mode())
	}
	// Uploads into a guest keep them.
	keep := filepath.Join(s.base, "target", "keep")
	if err := Extract(ctx, archive(t, entry{name: ".", typ: tar.TypeReg, body: "x", mode: 0o6755}), keep, UploadOptions); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(keep); st.Mode() != fs.ModeSetuid|fs.ModeSetgid|0o755 {
		t.Fatalf("upload mode %v", st.Mode())
	}
}

// zeros is an endless stream that counts what was read.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

func TestExtractHugeEntriesStopEarly(t *testing.T) {
	ctx := context.Background()
	st, err := statfs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	huge := st.avail + 1<<30
	for name, entries := range map[string][]entry{
		"file": {{name: ".", typ: tar.TypeReg, size: huge}},
		"dir":  {dirRoot, {name: "small", typ: tar.TypeReg, body: "x"}, {name: "big", typ: tar.TypeReg, size: huge}},
	} {
		for _, opts := range []ExtractOptions{{}, {MaxBytes: 1 << 20, Bounded: true}} {
			t.Run(name, func(t *testing.T) {
				s := newScene(t)
				z := &zeros{}
				err := Extract(ctx, io.MultiReader(archive(t, entries...), z), s.target, opts)
				var lim *machine.DownloadLimitExceeded
				if !errors.As(err, &lim) || machine.KindOf(err) != machine.KindDownloadLimit {
					t.Fatalf("got %v", err)
				}
				var se *SpaceError
				if !opts.Bounded && (!errors.As(err, &se) || !strings.Contains(err.Error(), ReserveEnv)) {
					t.Fatalf("the reserve is not named: %v", err)
				}
				if z.n > 1<<20 {
					t.Fatalf("read %d bytes of data before stopping", z.n)
				}
				if _, err := os.Lstat(s.target); !errors.Is(err, fs.ErrNotExist) {
					t.Fatal("partial download left behind")
				}
				s.check(t)
			})
		}
	}
}

// Archives GNU tar made of a 20 GB sparse file (a few hundred bytes each).
func TestExtractSparse(t *testing.T) {
	for _, name := range []string{"sparse-dir-pax", "sparse-dir-gnu", "sparse-file-pax"} {
		t.Run(name, func(t *testing.T) {
			s := newScene(t)
			st, err := statfs(s.base)
			if err != nil {
				t.Fatal(err)
			}
			// Leave 1 GiB to fill, whatever the size of the test machine's disk.
			opts := ExtractOptions{Reserve: max(st.avail-1<<30, 0)}
			err = Extract(context.Background(), bytes.NewReader(sparseArchive(t, name)), s.target, opts)
			var se *SpaceError
			if !errors.As(err, &se) {
				t.Fatalf("got %v", err)
			}
			if _, err := os.Lstat(s.target); !errors.Is(err, fs.ErrNotExist) {
				t.Fatal("partial download left behind")
			}
			s.check(t)
		})
	}
}

func sparseArchive(t testing.TB, name string) []byte {
	f, err := os.Open(filepath.Join("testdata", name+".tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestExtractReserve(t *testing.T) {
	ctx := context.Background()
	s := newScene(t)
	st, err := statfs(s.base)
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("x", 1<<20)
	// A reserve just below the free space: a 1 MiB file does not fit.
	opts := ExtractOptions{Reserve: st.avail - 512<<10}
	err = Extract(ctx, archive(t, dirRoot, entry{name: "a", typ: tar.TypeReg, body: "a"}, entry{name: "b", typ: tar.TypeReg, body: body}), s.target, opts)
	var se *SpaceError
	if !errors.As(err, &se) || se.Reserve != opts.Reserve {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Lstat(s.target); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("partial download left behind")
	}
	if err := Extract(ctx, archive(t, dirRoot, entry{name: "a", typ: tar.TypeReg, body: "a"}), s.target, opts); err != nil {
		t.Fatal(err)
	}
	s.check(t)
	// The environment variable sets the default; a bad value is refused.
	t.Setenv(ReserveEnv, "nonsense")
	if err := Extract(ctx, archive(t, entry{name: ".", typ: tar.TypeReg, body: "x"}), filepath.Join(s.target, "f"), ExtractOptions{}); !errors.As(err, new(*machine.InvalidSpec)) || !strings.Contains(err.Error(), ReserveEnv) {
		t.Fatalf("bad env: %v", err)
	}
	t.Setenv(ReserveEnv, "9223372036854775807")
	if err := Extract(ctx, archive(t, entry{name: ".", typ: tar.TypeReg, body: "x"}), filepath.Join(s.target, "f"), ExtractOptions{}); !errors.As(err, &se) {
		t.Fatalf("huge env reserve: %v", err)
	}
	t.Setenv(ReserveEnv, "0")
	if err := Extract(ctx, archive(t, entry{name: ".", typ: tar.TypeReg, body: "x"}), filepath.Join(s.target, "f"), ExtractOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestBound(t *testing.T) {
	for _, c := range []struct {
		in      int64
		max     int64
		bounded bool
	}{{0, 0, false}, {-1, 0, true}, {5, 5, true}} {
		if max, bounded := Bound(machine.DownloadOptions{MaxBytes: c.in}); max != c.max || bounded != c.bounded {
			t.Errorf("%d: %d %v", c.in, max, bounded)
		}
	}
	ctx := context.Background()
	s := newScene(t)
	zero := ForDownload(machine.DownloadOptions{MaxBytes: -1})
	if err := Extract(ctx, archive(t, entry{name: ".", typ: tar.TypeReg, body: "x"}), s.target, zero); !errors.As(err, new(*machine.DownloadLimitExceeded)) {
		t.Fatalf("a zero bound allowed a byte: %v", err)
	}
	if err := Extract(ctx, archive(t, dirRoot, entry{name: "e", typ: tar.TypeReg}, entry{name: "d/", typ: tar.TypeDir}), s.target, zero); err != nil {
		t.Fatalf("a zero bound refused empty files: %v", err)
	}
	// A directory's bound is the total of its files.
	dir := filepath.Join(s.target, "d2")
	three := archive(t, dirRoot, entry{name: "a", typ: tar.TypeReg, body: "12"}, entry{name: "b", typ: tar.TypeReg, body: "34"})
	if err := Extract(ctx, bytes.NewReader(three.Bytes()), dir, ExtractOptions{MaxBytes: 3, Bounded: true}); !errors.As(err, new(*machine.DownloadLimitExceeded)) {
		t.Fatalf("total: %v", err)
	}
	if err := Extract(ctx, bytes.NewReader(three.Bytes()), dir, ExtractOptions{MaxBytes: 4, Bounded: true}); err != nil {
		t.Fatal(err)
	}
	s.check(t)
}

func TestRoundTripAndLimits(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "a", "b"), 0o700)
	os.WriteFile(filepath.Join(src, "a", "b", "f"), []byte("hello"), 0o640)
	os.Symlink("b/f", filepath.Join(src, "a", "l"))
	os.Symlink("../a/b", filepath.Join(src, "a", "up"))
	os.Link(filepath.Join(src, "a", "b", "f"), filepath.Join(src, "hard"))
	var buf bytes.Buffer
	if err := WriteTar(ctx, &buf, src); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "dst")
	if err := Extract(ctx, bytes.NewReader(buf.Bytes()), dst, ExtractOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a/l", "a/up/f", "hard"} {
		if data, _ := os.ReadFile(filepath.Join(dst, p)); string(data) != "hello" {
			t.Fatalf("%s: got %q", p, data)
		}
	}
	if st, _ := os.Stat(filepath.Join(dst, "a", "b")); st.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", st.Mode())
	}
	var lim *machine.DownloadLimitExceeded
	if err := Extract(ctx, bytes.NewReader(buf.Bytes()), t.TempDir(), ExtractOptions{MaxBytes: 4, Bounded: true}); !errors.As(err, &lim) {
		t.Fatalf("limit: %v", err)
	}
	if err := Check(ctx, filepath.Join(src, "missing")); err == nil {
		t.Fatal("missing source accepted")
	}
	for _, target := range []string{"/etc/passwd", "../..", "a/../..", "a/l/.."} {
		os.Remove(filepath.Join(src, "out"))
		os.Symlink(target, filepath.Join(src, "out"))
		if err := Check(ctx, src); err == nil || !strings.Contains(err.Error(), "outside") {
			t.Fatalf("link to %s: %v", target, err)
		}
	}
}

// Setuid bits survive an upload's own round trip (tar holds Unix bits).
func TestWriteTarModes(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	f := filepath.Join(src, "suid")
	os.WriteFile(f, []byte("x"), 0o755)
	os.Chmod(f, 0o755|fs.ModeSetuid)
	var buf bytes.Buffer
	if err := WriteTar(ctx, &buf, src); err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(&buf)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatal("no suid entry")
		}
		if h.Name == "suid" {
			if h.Mode != 0o4755 {
				t.Fatalf("mode %o", h.Mode)
			}
			break
		}
	}
}

// A regular file swapped for a link to a secret after the walk is not read.
func TestWriteFileRefusesSwappedLink(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("secret"), 0o600)
	os.Symlink(secret, filepath.Join(dir, "f"))
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	var buf bytes.Buffer
	err := writeFile(tar.NewWriter(&buf), root, "f", "f", filepath.Join(dir, "f"), make([]byte, 512))
	if !errors.As(err, new(*machine.PathError)) || bytes.Contains(buf.Bytes(), []byte("secret")) {
		t.Fatalf("got %v", err)
	}
}

func TestExtractCancelled(t *testing.T) {
	s := newScene(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Extract(ctx, archive(t, dirRoot, entry{name: "a", typ: tar.TypeReg, body: "a"}), s.target, ExtractOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Lstat(s.target); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("partial download left behind")
	}
	s.check(t)
}
