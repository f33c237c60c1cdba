package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func mkTar(t *testing.T, entries ...*tar.Header) string {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, h := range entries {
		body := ""
		if h.Typeflag == tar.TypeReg {
			body = strings.Repeat("x", int(h.Size))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	return b.String()
}

func TestTarRoundTrip(t *testing.T) {
	e := commandtest.New(t, Commands())
	e.WriteFile("src/a.txt", "hello\n")
	e.WriteFile("src/sub/b.txt", "world\n")
	if err := e.FS.Symlink("a.txt", "/work/src/link"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"tar", "czf", "x.tgz", "src"}, {"tar", "-xzf", "x.tgz", "-C", "out"}} {
		if args[1] == "-xzf" {
			e.Mkdir("out")
		}
		if out, errOut, st := e.Run(args, ""); st != 0 {
			t.Fatalf("%v: %q %q %d", args, out, errOut, st)
		}
	}
	if got := e.ReadFile("out/src/sub/b.txt"); got != "world\n" {
		t.Errorf("b.txt = %q", got)
	}
	if target, err := e.FS.Readlink("/work/out/src/link"); err != nil || target != "a.txt" {
		t.Errorf("link = %q, %v", target, err)
	}
	out, _, _ := e.Run([]string{"tar", "tzf", "x.tgz"}, "")
	if out != "src/\nsrc/a.txt\nsrc/link\nsrc/sub/\nsrc/sub/b.txt\n" {
		t.Errorf("listing %q", out)
	}
	out, errOut, st := e.Run([]string{"tar", "cvf", "-", "src/a.txt"}, "")
	if st != 0 || errOut != "src/a.txt\n" || !strings.HasPrefix(out, "src/a.txt") {
		t.Errorf("cvf -: %q %d", errOut, st)
	}
}

func TestTarRefusesTraversal(t *testing.T) {
	cases := []struct {
		name string
		h    []*tar.Header
		err  string
	}{
		{"dotdot", []*tar.Header{{Name: "ok.txt", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644}, {Name: "../evil", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644}},
			"tar: ../evil: Member name contains '..'\n"},
		{"symlink-out", []*tar.Header{{Name: "l", Typeflag: tar.TypeSymlink, Linkname: "../../etc/passwd"}},
			"tar: l: link target '../../etc/passwd' leaves the extraction directory; refusing\n"},
		{"symlink-abs", []*tar.Header{{Name: "d/l", Typeflag: tar.TypeSymlink, Linkname: "/etc"}},
			"tar: d/l: link target '/etc' leaves the extraction directory; refusing\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := commandtest.New(t, Commands())
			e.WriteFile("x.tar", mkTar(t, c.h...))
			_, errOut, st := e.Run([]string{"tar", "xf", "x.tar"}, "")
			want := c.err + "tar: Exiting with failure status due to previous errors\n"
			if st != 2 || errOut != want {
				t.Errorf("got %q %d, want %q", errOut, st, want)
			}
			if e.Exists("ok.txt") || e.Exists("l") || e.Exists("d") {
				t.Error("something was extracted")
			}
		})
	}
	// A link that stays inside is fine.
	e := commandtest.New(t, Commands())
	e.WriteFile("x.tar", mkTar(t, &tar.Header{Name: "d/l", Typeflag: tar.TypeSymlink, Linkname: "../f"}))
	if _, errOut, st := e.Run([]string{"tar", "xf", "x.tar"}, ""); st != 0 {
		t.Errorf("inside link refused: %q", errOut)
	}
	// Absolute names lose their "/" and land under the target, as in GNU tar.
	e = commandtest.New(t, Commands())
	e.WriteFile("x.tar", mkTar(t, &tar.Header{Name: "/abs.txt", Typeflag: tar.TypeReg, Size: 2, Mode: 0o644}))
	_, errOut, st := e.Run([]string{"tar", "xf", "x.tar"}, "")
	if st != 0 || errOut != "tar: Removing leading `/' from member names\n" || e.ReadFile("abs.txt") != "xx" {
		t.Errorf("absolute member: %q %d", errOut, st)
	}
}

func TestTarQuotaRollback(t *testing.T) {
	e := commandtest.New(t, Commands())
	e.WriteFile("keep.txt", "original\n")
	e.WriteFile("x.tar", mkTar(t,
		&tar.Header{Name: "keep.txt", Typeflag: tar.TypeReg, Size: 10, Mode: 0o644},
		&tar.Header{Name: "dir/", Typeflag: tar.TypeDir, Mode: 0o755},
		&tar.Header{Name: "dir/small", Typeflag: tar.TypeReg, Size: 100, Mode: 0o644},
		&tar.Header{Name: "dir/huge", Typeflag: tar.TypeReg, Size: 3 << 20, Mode: 0o644}))
	_, used, _ := e.FS.Usage()
	e.FS.SetQuota(used + 1<<20)
	_, errOut, st := e.Run([]string{"tar", "xf", "x.tar"}, "")
	if st != 2 || !strings.Contains(errOut, "dir/huge: Cannot write: No space left on device") {
		t.Errorf("got %q %d", errOut, st)
	}
	if e.Exists("dir") {
		t.Error("dir left behind")
	}
	if got := e.ReadFile("keep.txt"); got != "original\n" {
		t.Errorf("keep.txt = %q, want restored", got)
	}
}

func TestGzipRoundTrip(t *testing.T) {
	e := commandtest.New(t, Commands())
	e.WriteFile("f.txt", strings.Repeat("abc\n", 100))
	if _, errOut, st := e.Run([]string{"gzip", "f.txt"}, ""); st != 0 {
		t.Fatal(errOut)
	}
	if e.Exists("f.txt") || !e.Exists("f.txt.gz") {
		t.Fatal("gzip did not replace the file")
	}
	out, _, st := e.Run([]string{"zcat", "f.txt.gz"}, "")
	if st != 0 || out != strings.Repeat("abc\n", 100) {
		t.Errorf("zcat: %d", st)
	}
	if _, errOut, st := e.Run([]string{"gunzip", "-k", "f.txt.gz"}, ""); st != 0 || !e.Exists("f.txt.gz") || e.ReadFile("f.txt") != strings.Repeat("abc\n", 100) {
		t.Errorf("gunzip -k: %q", errOut)
	}
	// Deterministic output: the same input always gives the same bytes.
	a, _, _ := e.Run([]string{"gzip", "-c", "f.txt"}, "")
	b, _, _ := e.Run([]string{"gzip", "-c", "f.txt"}, "")
	if a != b {
		t.Error("gzip output not deterministic")
	}
}

func TestZipRoundTripAndSlip(t *testing.T) {
	e := commandtest.New(t, Commands())
	e.WriteFile("d/a.txt", "hello\n")
	e.WriteFile("d/s/b.txt", strings.Repeat("b", 1000))
	out, _, st := e.Run([]string{"zip", "-r", "x.zip", "d"}, "")
	if st != 0 || out != "  adding: d/ (stored 0%)\n  adding: d/a.txt (stored 0%)\n  adding: d/s/ (stored 0%)\n  adding: d/s/b.txt (deflated 99%)\n" {
		t.Errorf("zip: %q %d", out, st)
	}
	e.Mkdir("o")
	if _, errOut, st := e.Run([]string{"unzip", "-q", "x.zip", "-d", "o"}, ""); st != 0 {
		t.Fatal(errOut)
	}
	if e.ReadFile("o/d/s/b.txt") != strings.Repeat("b", 1000) {
		t.Error("content mismatch")
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("../../escape.txt")
	w.Write([]byte("x"))
	zw.Close()
	e.WriteFile("evil.zip", b.String())
	e.Mkdir("t")
	e.Run([]string{"unzip", "evil.zip", "-d", "t"}, "")
	if e.Exists("/escape.txt") || e.Exists("escape.txt") || !e.Exists("t/escape.txt") {
		t.Error("zip slip not contained")
	}
}

// GNU tar names members after the operand as written ("." gives "./a")
// and drops leading "../"; it lists a directory in readdir order, where
// ShellSim uses name order.
func TestTarMemberNames(t *testing.T) {
	e := commandtest.New(t, Commands())
	e.WriteFile("src/a", "a\n")
	e.WriteFile("src/sub/b", "b\n")
	cases := []struct {
		args     []string
		dir      string
		out, err string
	}{
		{[]string{"tar", "cvf", "/work/y.tar", "-C", "src", "."}, "/work", "./\n./a\n./sub/\n./sub/b\n", ""},
		{[]string{"tar", "cvf", "/work/y.tar", "src/"}, "/work", "src/\nsrc/a\nsrc/sub/\nsrc/sub/b\n", ""},
		{[]string{"tar", "cvf", "/work/y.tar", "../src/a"}, "/work/src", "src/a\n", "tar: Removing leading `../' from member names\n"},
	}
	for _, c := range cases {
		e.Dir = c.dir
		out, errOut, st := e.Run(c.args, "")
		if out != c.out || errOut != c.err || st != 0 {
			t.Errorf("%v: got %q %q %d", c.args, out, errOut, st)
		}
	}
}
