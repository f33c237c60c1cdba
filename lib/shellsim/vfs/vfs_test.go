package vfs

import (
	"errors"
	"io"
	"os"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

func TestLayout(t *testing.T) {
	v := NewDefault(Options{})
	for _, d := range []string{"/root", "/tmp", "/work", "/bin", "/usr/bin", "/etc", "/dev", "/proc", "/home"} {
		fi, err := v.Stat(d)
		if err != nil || !fi.IsDir() {
			t.Fatalf("%s: %v %v", d, fi, err)
		}
	}
	if _, used, _ := v.Usage(); used != 8*NodeOverhead {
		t.Fatalf("used = %d", used)
	}
	if v.StdDevice("/dev/stdout") != 1 || !v.IsNull("/dev/null") {
		t.Fatal("devices")
	}
}

func TestFilesAndErrors(t *testing.T) {
	v := NewDefault(Options{})
	must(t, v.WriteFile("/work/a", []byte("hello"), 0o644))
	b, err := v.ReadFile("/work/a")
	if string(b) != "hello" || err != nil {
		t.Fatal(string(b), err)
	}
	if _, err := v.ReadFile("/work/nosuch"); command.Message(err) != "No such file or directory" {
		t.Fatal(err)
	}
	if _, err := v.ReadFile("/work"); command.Message(err) != "Is a directory" {
		t.Fatal(err)
	}
	if _, err := v.ReadFile("/work/a/b"); command.Message(err) != "Not a directory" {
		t.Fatal(err)
	}
	if err := v.Mkdir("/work", 0o755); command.Message(err) != "File exists" {
		t.Fatal(err)
	}
	must(t, v.MkdirAll("/work/x/y/z", 0o755))
	if err := v.Remove("/work/x"); command.Message(err) != "Directory not empty" {
		t.Fatal(err)
	}
	must(t, v.Symlink("a", "/work/l"))
	must(t, v.Symlink("l2", "/work/l1"))
	must(t, v.Symlink("l1", "/work/l2"))
	if _, err := v.Stat("/work/l1"); command.Message(err) != "Too many levels of symbolic links" {
		t.Fatal(err)
	}
	b, _ = v.ReadFile("/work/l")
	if string(b) != "hello" {
		t.Fatal(string(b))
	}
	if rp, _ := v.Realpath("/work/x/../l"); rp != "/work/a" {
		t.Fatal(rp)
	}
	must(t, v.Link("/work/a", "/work/h"))
	fi, _ := v.Stat("/work/h")
	if fi.Nlink != 2 {
		t.Fatal(fi)
	}
	f, err := v.OpenFile("/work/h", os.O_WRONLY|os.O_APPEND, 0)
	must(t, err)
	f.Write([]byte(" world"))
	f.Close()
	b, _ = v.ReadFile("/work/a")
	if string(b) != "hello world" {
		t.Fatal(string(b))
	}
	must(t, v.Rename("/work/a", "/work/x/b"))
	ents, _ := v.ReadDir("/work")
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
	}
	if got := join(names); got != "h l l1 l2 x" {
		t.Fatal(got)
	}
	must(t, v.RemoveAll("/work/x"))
	must(t, v.Remove("/work/h"))
	must(t, v.Remove("/work/l"))
	must(t, v.Remove("/work/l1"))
	must(t, v.Remove("/work/l2"))
	if _, used, _ := v.Usage(); used != 8*NodeOverhead {
		t.Fatalf("used after cleanup = %d", used)
	}
}

func TestQuota(t *testing.T) {
	v := NewDefault(Options{Quota: 8*NodeOverhead + NodeOverhead + 100})
	must(t, v.WriteFile("/work/a", make([]byte, 100), 0o644))
	err := v.WriteFile("/work/b", nil, 0o644)
	if !errors.Is(err, command.ErrNoSpace) {
		t.Fatal(err)
	}
	if _, err := v.Stat("/work/b"); err == nil {
		t.Fatal("b created over quota")
	}
	f, _ := v.OpenFile("/work/a", os.O_WRONLY|os.O_APPEND, 0)
	if _, err := f.Write([]byte("x")); command.Message(err) != "No space left on device" {
		t.Fatal(err)
	}
	must(t, v.Remove("/work/a"))
	must(t, v.WriteFile("/work/b", []byte("ok"), 0o644))
}

func TestCloneIndependent(t *testing.T) {
	v := NewDefault(Options{})
	must(t, v.WriteFile("/work/a", []byte("1"), 0o644))
	must(t, v.Link("/work/a", "/work/b"))
	c := v.Clone()
	must(t, c.WriteFile("/work/a", []byte("2"), 0o644))
	b, _ := v.ReadFile("/work/a")
	cb, _ := c.ReadFile("/work/b")
	if string(b) != "1" || string(cb) != "2" {
		t.Fatal(string(b), string(cb))
	}
}

type fakeProc struct{}

func (fakeProc) List(dir string) []string {
	if dir == "." {
		return []string{"1", "self", "uptime"}
	}
	return []string{"status"}
}
func (fakeProc) Node(rel string) (ProcNode, bool) {
	switch rel {
	case "1":
		return ProcNode{Dir: true}, true
	case "self":
		return ProcNode{Target: "1"}, true
	case "uptime":
		return ProcNode{Data: []byte("0.00 0.00\n")}, true
	case "1/status":
		return ProcNode{Data: []byte("Pid:\t1\n")}, true
	}
	return ProcNode{}, false
}

func TestProc(t *testing.T) {
	v := NewDefault(Options{})
	v.SetProc(fakeProc{})
	b, err := v.ReadFile("/proc/self/status")
	if string(b) != "Pid:\t1\n" || err != nil {
		t.Fatal(string(b), err)
	}
	if err := v.WriteFile("/proc/uptime", nil, 0o644); command.Message(err) != "Read-only file system" {
		t.Fatal(err)
	}
	ents, err := v.ReadDir("/proc")
	if len(ents) != 3 || err != nil {
		t.Fatal(ents, err)
	}
}

func TestDevNullZeroAndView(t *testing.T) {
	v := NewDefault(Options{})
	must(t, v.WriteFile("/dev/null", []byte("gone"), 0))
	f, _ := v.Open("/dev/zero")
	buf := make([]byte, 4)
	buf[0] = 9
	f.Read(buf)
	if buf[0] != 0 {
		t.Fatal(buf)
	}
	var out stringsBuilder
	w := &View{FS: v, Streams: Streams{Stdout: &out}}
	must(t, w.WriteFile("/dev/stdout", []byte("hi"), 0))
	if out.s != "hi" {
		t.Fatal(out.s)
	}
	g, _ := w.Open("/dev/stdin")
	if _, err := g.Read(buf); err != io.EOF {
		t.Fatal(err)
	}
}

type stringsBuilder struct{ s string }

func (b *stringsBuilder) Write(p []byte) (int, error) { b.s += string(p); return len(p), nil }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
