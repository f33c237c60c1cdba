package remotemachine_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/remotemachine"
	"github.com/shellbox/shellbox/lib/remote/shwrap"
)

// explained is the backends' Explain in these tests.
func explained(_ context.Context, what string, err error) error {
	return fmt.Errorf("explained %s: %w", what, err)
}

// An operation ends when the machine closes; the release runs once, with
// a context the caller's cancellation does not end, and a second Close
// waits for the first; afterwards operations are refused.
func TestLifetime(t *testing.T) {
	l := remotemachine.NewLifetime(explained)
	octx, done, err := l.Op(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := l.Op(cancelled); !errors.Is(err, context.Canceled) {
		t.Fatalf("an ended context: %v", err)
	}
	var releases atomic.Int32
	release := make(chan struct{})
	first := make(chan error)
	go func() {
		first <- l.Close(cancelled, func(ctx context.Context) error {
			releases.Add(1)
			if ctx.Err() != nil {
				t.Error("the release's context ended with the caller's")
			}
			<-release
			return errors.New("release failed")
		})
	}()
	select {
	case <-octx.Done():
	case <-time.After(time.Minute):
		t.Fatal("the operation outlived Close")
	}
	second := make(chan error)
	go func() {
		second <- l.Close(context.Background(), func(context.Context) error { releases.Add(1); return nil })
	}()
	select {
	case err := <-second:
		t.Fatalf("the second Close returned (%v) before the first ended", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-first; err == nil || err.Error() != "release failed" {
		t.Fatalf("the first Close: %v", err)
	}
	if err := <-second; err != nil {
		t.Fatalf("the second Close: %v", err)
	}
	if n := releases.Load(); n != 1 {
		t.Fatalf("%d releases", n)
	}
	if !l.Closed() || l.Context().Err() == nil {
		t.Fatal("not closed")
	}
	if _, _, err := l.Op(context.Background()); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("an operation after Close: %v", err)
	}
}

func TestReport(t *testing.T) {
	l := remotemachine.NewLifetime(explained)
	bg := context.Background()
	other := errors.New("service down")
	if err := l.Report(bg, "run", nil); err != nil {
		t.Errorf("nil: %v", err)
	}
	if err := l.Report(bg, "run", other); err == nil || err.Error() != "explained run: service down" {
		t.Errorf("a service's error is the backend's to explain: %v", err)
	}
	pe := &machine.PathError{Op: "read", Path: "/x"}
	if err := l.Report(bg, "run", pe); err != pe {
		t.Errorf("a path error: %v", err)
	}
	cancelled, cancel := context.WithCancel(bg)
	cancel()
	if err := l.Report(cancelled, "run", other); !errors.Is(err, context.Canceled) {
		t.Errorf("an ended context: %v", err)
	}
	_ = l.Close(bg, func(context.Context) error { return nil })
	if err := l.Report(bg, "run", pe); !errors.Is(err, machine.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// Do gives its operation a context that Close ends, returns the result
// with the reported error, and refuses to start once the machine closed.
func TestDo(t *testing.T) {
	l := remotemachine.NewLifetime(explained)
	bg := context.Background()
	v, err := remotemachine.Do(bg, l, "sum", func(context.Context) (int, error) { return 3, errors.New("partial") })
	if v != 3 || err == nil || err.Error() != "explained sum: partial" {
		t.Errorf("got %d, %v", v, err)
	}
	started := make(chan struct{})
	result := make(chan error)
	go func() {
		result <- l.Do(bg, "wait", func(ctx context.Context) error {
			close(started)
			<-ctx.Done()
			return ctx.Err()
		})
	}()
	<-started
	_ = l.Close(bg, func(context.Context) error { return nil })
	select {
	case err := <-result:
		if !errors.Is(err, machine.ErrClosed) {
			t.Errorf("an operation that Close ended: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Close did not end the operation")
	}
	ran := false
	if err := l.Do(bg, "late", func(context.Context) error { ran = true; return nil }); !errors.Is(err, machine.ErrClosed) || ran {
		t.Errorf("after Close: ran %v, %v", ran, err)
	}
}

func TestWorkdir(t *testing.T) {
	if p := remotemachine.NewWorkdir("").Prelude(); p != "" {
		t.Errorf("no workdir: %q", p)
	}
	w := remotemachine.NewWorkdir("/work dir")
	if p := w.Prelude(); p != "mkdir -p '/work dir' || exit 1\n" {
		t.Errorf("prelude %q", p)
	}
	w.Made()
	if p := w.Prelude(); p != "" {
		t.Errorf("after Made: %q", p)
	}
}

func TestPaths(t *testing.T) {
	host := filepath.Join(t.TempDir(), "f")
	if got, err := remotemachine.UploadPaths(host, "/a//b/"); err != nil || got != "/a/b" {
		t.Errorf("upload: %q %v", got, err)
	}
	if got, err := remotemachine.DownloadPaths("/a/./b", host); err != nil || got != "/a/b" {
		t.Errorf("download: %q %v", got, err)
	}
	var iv *machine.InvalidSpec
	if _, err := remotemachine.UploadPaths(host, "relative"); !errors.As(err, &iv) || iv.Field != "target" {
		t.Errorf("a relative target: %v", err)
	}
	if _, err := remotemachine.DownloadPaths("relative", host); !errors.As(err, &iv) || iv.Field != "source" {
		t.Errorf("a relative source: %v", err)
	}
}

func TestParseProbe(t *testing.T) {
	for _, c := range []struct {
		out  string
		want remotemachine.Probe
	}{
		{"noise\n" + shwrap.Dir + " 10240\n", remotemachine.Probe{Dir: true, Size: 10240}},
		{shwrap.File + " 755 12", remotemachine.Probe{Mode: 0o755, Size: 12}},
	} {
		if got, err := remotemachine.ParseProbe("/s", c.out); err != nil || got != c.want {
			t.Errorf("%q: %+v %v", c.out, got, err)
		}
	}
	var pe *machine.PathError
	if _, err := remotemachine.ParseProbe("/s", shwrap.Missing); !errors.As(err, &pe) || !pe.NotFound {
		t.Errorf("missing: %v", err)
	}
	if _, err := remotemachine.ParseProbe("/s", shwrap.Special); !errors.As(err, &pe) || pe.NotFound {
		t.Errorf("special: %v", err)
	}
	for _, out := range []string{"", "tar: error", shwrap.File + " 9x 1", shwrap.Dir} {
		if _, err := remotemachine.ParseProbe("/s", out); err == nil || errors.As(err, &pe) {
			t.Errorf("%q: %v", out, err)
		}
	}
}

// A file arrives with its mode; one that gives fewer bytes than probed
// shrank, an error, and the download limit applies.
func TestExtractFile(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	target := filepath.Join(dir, "got")
	if err := remotemachine.ExtractFile(ctx, strings.NewReader("hello"), "/s", 0o640, 5, target, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "hello" {
		t.Fatalf("%q %v", b, err)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", st.Mode())
	}
	err := remotemachine.ExtractFile(ctx, strings.NewReader("hel"), "/s", 0o640, 5, filepath.Join(dir, "short"), machine.DownloadOptions{})
	if err == nil || !strings.Contains(err.Error(), "shrank") {
		t.Errorf("a short read: %v", err)
	}
	err = remotemachine.ExtractFile(ctx, strings.NewReader("hello"), "/s", 0o640, 5, filepath.Join(dir, "big"), machine.DownloadOptions{MaxBytes: 2})
	if err == nil {
		t.Error("a file over the limit was extracted")
	}
}

// Stage and its script, with the host standing in for the machine (put
// writes the host path it is given; the script runs in the host's sh): a
// file arrives with its mode, a directory with its tree; an unreadable
// source sends nothing.
func TestStage(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "tree", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "tree", "sub", "f"), []byte("in tree"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "file"), []byte("one file"), 0o750); err != nil {
		t.Fatal(err)
	}
	put := func(ctx context.Context, tmp string, r io.Reader) error {
		f, err := os.Create(tmp)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(f, r)
		return err
	}
	dst := t.TempDir()
	for _, c := range []struct{ source, target, check string }{
		{filepath.Join(src, "file"), filepath.Join(dst, "new", "file"), filepath.Join(dst, "new", "file")},
		{filepath.Join(src, "tree"), filepath.Join(dst, "tree"), filepath.Join(dst, "tree", "sub", "f")},
	} {
		tmp, script, err := remotemachine.Stage(ctx, c.source, c.target, put)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("sh", "-c", script).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", c.source, err, out)
		}
		if _, err := os.Stat(tmp); !os.IsNotExist(err) {
			t.Errorf("%s stayed: %v", tmp, err)
		}
		if b, _ := os.ReadFile(c.check); len(b) == 0 {
			t.Errorf("%s did not arrive", c.check)
		}
	}
	if st, err := os.Stat(filepath.Join(dst, "new", "file")); err != nil || st.Mode().Perm() != 0o750 {
		t.Errorf("the file's mode: %v %v", st, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "tree", "sub", "f")); string(b) != "in tree" {
		t.Errorf("the tree's file: %q", b)
	}
	var pe *machine.PathError
	tmp, _, err := remotemachine.Stage(ctx, filepath.Join(src, "missing"), "/x", put)
	if !errors.As(err, &pe) || !pe.NotFound || tmp != "" {
		t.Errorf("a missing source: %q %v", tmp, err)
	}
}
