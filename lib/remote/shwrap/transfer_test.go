package shwrap

import (
	"archive/tar"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The transfer scripts, run by the host's sh: PlaceScript copies a file
// into a new directory with its mode, UntarScript extracts an archive into
// a new directory; both remove what they were given and report failure by
// their status.
func TestTransferScriptsOnTheHost(t *testing.T) {
	dir := t.TempDir()
	run := func(script string) error { return exec.Command("sh", "-c", script).Run() }
	tmp := filepath.Join(dir, "tmp file")
	if err := os.WriteFile(tmp, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "new dir", "it's")
	if err := run(PlaceScript(target, tmp, 0o751)); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "data" {
		t.Fatalf("placed: %q %v", b, err)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o751 {
		t.Errorf("mode %v", st.Mode())
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the temporary file stayed: %v", err)
	}
	if err := run(PlaceScript(target, filepath.Join(dir, "missing"), 0o644)); err == nil {
		t.Error("placing a missing file succeeded")
	}

	archive := filepath.Join(dir, "a.tar")
	f, err := os.Create(archive)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(f)
	if err := tw.WriteHeader(&tar.Header{Name: "sub/x", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	into := filepath.Join(dir, "into $HOME")
	if err := run(UntarScript(into, archive)); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(into, "sub", "x")); err != nil || string(b) != "x" {
		t.Fatalf("extracted: %q %v", b, err)
	}
	if _, err := os.Stat(archive); !os.IsNotExist(err) {
		t.Errorf("the archive stayed: %v", err)
	}
	if err := run(UntarScript(into, archive)); err == nil {
		t.Error("extracting a missing archive succeeded")
	}
}

func TestParseStopReply(t *testing.T) {
	if p, err := ParseStopReply(NoPid + "\n"); err != nil || p.Code != -1 || !p.Inline || len(p.Stdout) != 0 {
		t.Errorf("NoPid: %+v %v", p, err)
	}
	if _, err := ParseStopReply(StopFail + "\n"); err == nil {
		t.Error("StopFail is no error")
	}
	if p, err := ParseStopReply(markResult + " 137 3 0\n"); err != nil || p.Code != 137 || p.OutLen != 3 {
		t.Errorf("a result: %+v %v", p, err)
	}
	if _, err := ParseStopReply("sh: oops\n"); err == nil {
		t.Error("no result is no error")
	}
}
