package shwrap

import (
	"bytes"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The scripts run by the host's shells (dash, BusyBox ash, bash) give what
// ParseReply reads: exit status, binary streams, truncation, environment,
// input carried in the script, the workdir made on the way, and a stop
// that kills the recorded group while keeping the output so far.
func TestScriptsOnTheHost(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Fatal("setsid is needed on the host: ", err)
	}
	for _, shell := range [][]string{{"dash"}, {"busybox", "sh"}, {"bash", "--posix"}} {
		t.Run(shell[0], func(t *testing.T) { scriptsOn(t, shell) })
	}
}

func scriptsOn(t *testing.T, shell []string) {
	if _, err := exec.LookPath(shell[0]); err != nil {
		t.Fatalf("%s is needed on the host: %v", shell[0], err)
	}
	dir := filepath.Join(t.TempDir(), "cmd")
	sh := func(script string) string {
		out, err := exec.Command(shell[0], append(shell[1:], "-c", script)...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return string(out)
	}
	// The common case: no input, no output, the workdir made along with
	// the command's directory; one line of shell; nothing left behind.
	work := filepath.Join(t.TempDir(), "a", "work")
	script := RunScript(RunOptions{Dir: dir, Cwd: work, Argv: []string{"sh", "-c", "exit 0"}, Limit: 5, Workdir: work})
	if strings.Contains(script, "\n") {
		t.Fatalf("the script is several lines:\n%s", script)
	}
	r, err := ParseReply(sh(script))
	if err != nil || !r.Inline || r.Code != 0 || len(r.Stdout)+len(r.Stderr) != 0 || r.OutLen+r.ErrLen != 0 {
		t.Fatalf("%+v %v", r, err)
	}
	if st, err := os.Stat(work); err != nil || !st.IsDir() {
		t.Fatalf("the workdir: %v", err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("an inlined reply left the command's directory")
	}
	// Input carried in the script; output past the limit, and past the
	// inline limit, is cut to the limit.
	r, err = ParseReply(sh(RunScript(RunOptions{Dir: dir, Cwd: "/", Argv: []string{"sh", "-c", "cat; head -c 300000 /dev/zero >&2"}, Input: []byte("x\x00y"), Limit: 2})))
	if err != nil || !r.Inline || string(r.Stdout) != "x\x00" || r.OutLen != 3 || string(r.Stderr) != "\x00\x00" || r.ErrLen != 300000 {
		t.Fatalf("%+v %v", r, err)
	}
	// A big limit and output over the inline limit: the reply has the
	// sizes only and the files stay for the client to read.
	r, err = ParseReply(sh(RunScript(RunOptions{Dir: dir, Cwd: "/", Argv: []string{"sh", "-c", "head -c 300000 /dev/zero"}, Limit: 1 << 20})))
	if err != nil || r.Inline || r.OutLen != 300000 || r.ErrLen != 0 {
		t.Fatalf("%+v %v", r, err)
	}
	if st, err := os.Stat(dir + "/out"); err != nil || st.Size() != 300000 {
		t.Fatalf("the output file: %v", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/in", []byte("in\x00put"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err = ParseReply(sh(RunScript(RunOptions{Dir: dir, Cwd: "/", Argv: []string{"sh", "-c", `cat; printf '\377%s' "$V" >&2; exit 3`},
		Env: map[string]string{"V": "it's\nv"}, Stdin: true, Limit: 5})))
	if err != nil || !r.Inline || r.Code != 3 || string(r.Stdout) != "in\x00pu" || r.OutLen != 6 || string(r.Stderr) != "\xffit's" || r.ErrLen != 7 {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("an inlined reply left the command's directory")
	}
	// A command still running is stopped; its output so far is kept.
	done := make(chan string, 1)
	go func() {
		out, _ := exec.Command("sh", "-c", RunScript(RunOptions{Dir: dir, Cwd: "/", Argv: []string{"sh", "-c", "echo partial; sleep 100 & sleep 100"}, Limit: 100})).CombinedOutput()
		done <- string(out)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, _ := os.ReadFile(dir + "/out"); bytes.Equal(b, []byte("partial\n")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the command did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	pid := strings.TrimSpace(sh("cat " + Quote(dir+"/pid")))
	r, err = ParseReply(sh(StopScript(dir, 100)))
	if err != nil || string(r.Stdout) != "partial\n" || r.Marker != "" {
		t.Fatalf("stop: %+v %v", r, err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the wrapper did not end after its group was killed")
	}
	// Zombies do not count: the killed command's orphans are reaped by
	// whoever is PID 1 here, in its own time.
	if out := sh("ps -eo pgid=,stat= | awk -v p=" + Quote(pid) + " '$1 == p && $2 !~ /^Z/' | wc -l"); strings.TrimSpace(out) != "0" {
		t.Fatalf("%s processes of the group remain", out)
	}
}

func TestParseReply(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	r, err := ParseReply("noise\n" + markResult + " 0 3 0\n" + markInline + "\n" + b64([]byte("abc")) + "\n" + markSep + "\n\n" + markEnd + "\n")
	if err != nil || !r.Inline || string(r.Stdout) != "abc" || len(r.Stderr) != 0 || r.Preamble != "noise" {
		t.Fatalf("%+v %v", r, err)
	}
	if r, err := ParseReply(markResult + " 1 9000000 0\n"); err != nil || r.Inline || r.OutLen != 9000000 {
		t.Fatalf("a reply to download: %+v %v", r, err)
	}
	if r, _ := ParseReply("x\n" + NoSetsid + "\n"); r.Marker != NoSetsid {
		t.Fatalf("a marker: %+v", r)
	}
	for _, bad := range []string{"sh: setsid: not found", markResult + " x 1 2", markResult + " 0 1 2\n" + markInline + "\nYWJj\n"} {
		if _, err := ParseReply(bad); err == nil {
			t.Fatalf("%q parsed", bad)
		}
	}
}
