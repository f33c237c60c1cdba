package machinetest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// exitCodes: exit statuses, and stdin, stdout and stderr byte for byte
// (binary, and text that looks like a protocol frame).
func (s *suite) exitCodesAndStreams(t *testing.T) {
	m := s.machine(t, nil)
	want(t, run(t, m, machine.Command{Argv: []string{"sh", "-c", "exit 0"}}), 0, "", "")
	want(t, run(t, m, machine.Command{Argv: []string{"sh", "-c", "exit 3"}}), 3, "", "")
	want(t, run(t, m, machine.Command{Argv: []string{"sh", "-c", "exit 255"}}), 255, "", "")
	if r := sh(t, m, "kill -KILL $$"); Code(r) != 137 || r.Reason != machine.Exited {
		t.Fatalf("a command killed by SIGKILL: code %d reason %s, want 137 exited", Code(r), r.Reason)
	}
	payload := []byte("SHELLBOX_PGID:7\nanswer\x00\xff\r\n{\"frame\":1}")
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "cat; printf 'err\\000or' >&2; exit 23"}, Stdin: payload})
	if Code(r) != 23 || !bytes.Equal(r.Stdout, payload) || string(r.Stderr) != "err\x00or" || r.StdoutTruncated || r.StderrTruncated {
		t.Fatalf("binary streams: code %d stdout %q stderr %q", Code(r), r.Stdout, r.Stderr)
	}
	// Without stdin a command reads EOF at once.
	want(t, run(t, m, machine.Command{Argv: []string{"cat"}}), 0, "", "")
	big := bytes.Repeat([]byte{0, 1, 2, 250, 255, '\n'}, 200_000)
	r = run(t, m, machine.Command{Argv: []string{"cat"}, Stdin: big, OutputLimit: len(big)})
	if !bytes.Equal(r.Stdout, big) || r.StdoutTruncated {
		t.Fatalf("1.2 MB stdin round trip: got %d bytes, truncated %v", len(r.Stdout), r.StdoutTruncated)
	}
}

// arguments with quotes, newlines and control bytes arrive intact, as do
// environment values.
func (s *suite) arguments(t *testing.T) {
	m := s.machine(t, nil)
	args := []string{"a b", "it's", "new\nline\n\n", "", "%s %% \\ \\n", "tab\there", "\x01\x7f", "ünï", "'\n'", "$HOME `id` $(id)"}
	r := run(t, m, machine.Command{
		Argv: append([]string{"sh", "-c", `for a in "$@"; do printf '[%s]' "$a"; done; printf '{%s}' "$V"`, "x"}, args...),
		Env:  map[string]string{"V": "multi\nline\n"},
	})
	w := ""
	for _, a := range args {
		w += "[" + a + "]"
	}
	want(t, r, 0, w+"{multi\nline\n}", "")
}

// envAndCwd: the spec's environment under the command's, the spec's
// workdir (created at start, nested) as the default directory, Cwd, a
// missing Cwd failing the command (not the machine), the host's
// environment kept out.
func (s *suite) envAndCwd(t *testing.T) {
	os.Setenv("SHELLBOX_HOST_ONLY", "leak")
	defer os.Unsetenv("SHELLBOX_HOST_ONLY")
	m := s.machine(t, func(sp *machine.Spec) {
		sp.Workdir = "/deep/work/dir"
		sp.Env = map[string]string{"SPEC": "from-spec", "ANSWER": "overridden"}
	})
	want(t, sh(t, m, `pwd; test -w . && echo writable; printf '%s %s\n' "$SPEC" "$ANSWER"`), 0, "/deep/work/dir\nwritable\nfrom-spec overridden\n", "")
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", `pwd; printf '%s %s %s\n' "$SPEC" "$ANSWER" "${SHELLBOX_HOST_ONLY-unset}"`},
		Cwd: "/tmp", Env: map[string]string{"ANSWER": "42"}})
	want(t, r, 0, "/tmp\nfrom-spec 42 unset\n", "")
	// The command's overlay does not stay.
	want(t, sh(t, m, `echo "$ANSWER"`), 0, "overridden\n", "")
	r = run(t, m, machine.Command{Argv: []string{"pwd"}, Cwd: "/no/such/dir"})
	if Code(r) == 0 || r.Reason != machine.Exited || len(r.Stderr) == 0 {
		t.Fatalf("a missing cwd: %+v (stderr %q), want a failed command with a message", r, r.Stderr)
	}
	want(t, sh(t, m, "echo usable"), 0, "usable\n", "")
	// An invalid command is refused before it runs.
	if _, err := m.Run(context.Background(), machine.Command{Argv: []string{"pwd"}, Cwd: "relative", OutputLimit: 10}); machine.KindOf(err) != machine.KindInvalid {
		t.Fatalf("a relative cwd: %v, want an InvalidSpec", err)
	}
	if _, err := m.Run(context.Background(), machine.Command{OutputLimit: 10}); machine.KindOf(err) != machine.KindInvalid {
		t.Fatalf("an empty argv: %v, want an InvalidSpec", err)
	}
}

// missingProgram exits 127 with a message, as a shell does.
func (s *suite) missingProgram(t *testing.T) {
	m := s.machine(t, nil)
	for _, argv := range [][]string{{"no-such-program"}, {"no-such-program", "arg"}, {"sh", "-c", "no-such-program"}} {
		r := run(t, m, machine.Command{Argv: argv})
		if Code(r) != 127 || r.Reason != machine.Exited || len(r.Stderr) == 0 {
			t.Fatalf("%q: code %d stderr %q, want 127 with a message", argv, Code(r), r.Stderr)
		}
	}
	want(t, sh(t, m, "echo usable"), 0, "usable\n", "")
}

// timeoutCheck: a timeout is a result, not an error: no exit code, reason
// TimedOut, partial output kept; the command's process group is gone,
// other groups and the files stay, and the machine is usable.
func (s *suite) timeoutCheck(t *testing.T) {
	m := s.machine(t, nil)
	sh(t, m, "echo keep > kept; sleep 1000 > /dev/null 2>&1 & echo $! > service.pid")
	start := time.Now()
	r := run(t, m, machine.Command{
		Argv:    []string{"sh", "-c", "echo partial; echo e >&2; sleep 1000 & echo $! > child.pid; " + s.caps.block()},
		Timeout: s.caps.timeout(),
		Stdin:   bytes.Repeat([]byte("x"), 1<<20), // never read
	})
	if r.ExitCode != nil || r.Reason != machine.TimedOut || string(r.Stdout) != "partial\n" || string(r.Stderr) != "e\n" || r.StdoutTruncated || r.StderrTruncated {
		t.Fatalf("timeout result: code %d reason %q stdout %q stderr %q", Code(r), r.Reason, r.Stdout, r.Stderr)
	}
	// The bound proves the timeout ended the command (it would otherwise
	// run 1000 s); it is generous because remote backends carry the 1 MiB
	// of stdin before the timeout starts (Iris: 16 exec calls), which took
	// over 11 s on a loaded CI host.
	if d := time.Since(start); d > s.caps.timeout()+40*time.Second {
		t.Fatalf("a %v timeout took %v", s.caps.timeout(), d)
	}
	s.stoppedChild(t, m, "child.pid", "a background child of the timed-out command")
	if !alive(t, m, "service.pid") {
		t.Fatal("a background process of an earlier command was killed by another command's timeout")
	}
	want(t, sh(t, m, "cat kept; exit 7"), 7, "keep\n", "")
	// A timeout that does not expire changes nothing.
	r = run(t, m, machine.Command{Argv: []string{"sh", "-c", "echo quick"}, Timeout: time.Minute})
	want(t, r, 0, "quick\n", "")
	if _, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}, Timeout: -time.Second}); machine.KindOf(err) != machine.KindInvalid {
		t.Fatalf("a negative timeout: %v, want an InvalidSpec", err)
	}
}

// stoppedChild checks what became of a background child of a stopped
// command: gone with the command's process group, or running in a group
// of its own when the backend declares JobGroups.
func (s *suite) stoppedChild(t *testing.T, m machine.Machine, file, what string) {
	t.Helper()
	if !s.caps.JobGroups {
		waitGone(t, m, file, what)
		return
	}
	if !alive(t, m, file) {
		t.Fatalf("%s: gone, but the backend declares that background jobs have groups of their own", what)
	}
	sh(t, m, "kill -KILL $(cat "+file+")")
	waitGone(t, m, file, what+" after kill")
}

// cancellation of Run's context stops the command's group and returns the
// context's error; the machine stays usable.
func (s *suite) cancellation(t *testing.T) {
	m := s.machine(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), s.caps.timeout())
	defer cancel()
	_, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 & echo $! > child.pid; " + s.caps.block()}, OutputLimit: 100})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a cancelled run: %v, want context.DeadlineExceeded", err)
	}
	s.stoppedChild(t, m, "child.pid", "a background child of the cancelled command")
	want(t, sh(t, m, "echo usable"), 0, "usable\n", "")
	// A context cancelled before the call runs nothing.
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := m.Run(done, machine.Command{Argv: []string{"sh", "-c", "echo ran > ran"}, OutputLimit: 100}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a run with a cancelled context: %v", err)
	}
	want(t, sh(t, m, "test -e ran || echo none"), 0, "none\n", "")
}

// outputLimits: per stream, with truncation flags; limit 0 keeps nothing.
func (s *suite) outputLimits(t *testing.T) {
	m := s.machine(t, nil)
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "echo 0123456789; printf ab >&2"}, OutputLimit: 4})
	if string(r.Stdout) != "0123" || !r.StdoutTruncated || string(r.Stderr) != "ab" || r.StderrTruncated || Code(r) != 0 {
		t.Fatalf("limit 4: %q %v %q %v", r.Stdout, r.StdoutTruncated, r.Stderr, r.StderrTruncated)
	}
	r = run(t, m, machine.Command{Argv: []string{"sh", "-c", "printf 0123; printf abcd >&2"}, OutputLimit: 4})
	if string(r.Stdout) != "0123" || r.StdoutTruncated || string(r.Stderr) != "abcd" || r.StderrTruncated {
		t.Fatalf("output of exactly the limit: %q %v %q %v", r.Stdout, r.StdoutTruncated, r.Stderr, r.StderrTruncated)
	}
	r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "echo out; echo err >&2"}, OutputLimit: 0})
	if err != nil || len(r.Stdout) != 0 || len(r.Stderr) != 0 || !r.StdoutTruncated || !r.StderrTruncated || Code(r) != 0 {
		t.Fatalf("limit 0: %+v %v", r, err)
	}
	r, err = m.Run(context.Background(), machine.Command{Argv: []string{"true"}, OutputLimit: 0})
	if err != nil || r.StdoutTruncated || r.StderrTruncated || Code(r) != 0 {
		t.Fatalf("limit 0 without output: %+v %v", r, err)
	}
	if _, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}, OutputLimit: -1}); machine.KindOf(err) != machine.KindInvalid {
		t.Fatalf("a negative limit: %v, want an InvalidSpec", err)
	}
}

// boundedOutputMemory prints much more than the limit on both streams: the
// limit's bytes are kept and this process's memory stays flat.
func (s *suite) boundedOutputMemory(t *testing.T) {
	m := s.machine(t, nil)
	mib := s.caps.bigOutput()
	var r machine.Result
	start := time.Now()
	grow := PeakRSS(func() {
		r = run(t, m, machine.Command{
			Argv:        []string{"sh", "-c", "head -c " + strconv.Itoa(mib<<20) + " /dev/zero & head -c " + strconv.Itoa(mib<<20) + " /dev/zero >&2; wait"},
			OutputLimit: 1 << 20,
		})
	})
	t.Logf("printed 2 x %d MiB in %v; RSS grew %.1f MiB", mib, time.Since(start), float64(grow)/(1<<20))
	if Code(r) != 0 || len(r.Stdout) != 1<<20 || len(r.Stderr) != 1<<20 || !r.StdoutTruncated || !r.StderrTruncated {
		t.Fatalf("code %d, %d/%d bytes kept, truncated %v/%v", Code(r), len(r.Stdout), len(r.Stderr), r.StdoutTruncated, r.StderrTruncated)
	}
	if grow > 24<<20 {
		t.Fatalf("RSS grew %d MiB for 2 MiB of kept output", grow>>20)
	}
}

// persistence: files and background processes outlive the command that
// made them, and a command returns although its background child holds
// its stdout.
func (s *suite) persistence(t *testing.T) {
	m := s.machine(t, nil)
	start := time.Now()
	want(t, sh(t, m, "echo data > file; mkdir -p d/e; sleep 1000 & echo $! > bg.pid; echo started"), 0, "started\n", "")
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("a command with a background child took %v", d)
	}
	want(t, sh(t, m, "cat file; test -d d/e && echo dir"), 0, "data\ndir\n", "")
	if !alive(t, m, "bg.pid") {
		t.Fatal("a background process did not survive its command")
	}
	// Shell state does not carry over between commands.
	sh(t, m, "X=set; export Y=set; cd d")
	want(t, sh(t, m, `echo "${X-unset} ${Y-unset}"; pwd`), 0, "unset unset\n"+Workdir+"\n", "")
	// Machines share nothing.
	other := s.machine(t, nil)
	want(t, sh(t, other, "test -e file || echo none"), 0, "none\n", "")
}

// users: by name and by uid; an unknown user is refused. A backend without
// users refuses every user.
func (s *suite) users(t *testing.T) {
	m := s.machine(t, nil)
	ctx := context.Background()
	if s.caps.User == "" {
		for _, u := range []string{"nobody", "65533"} {
			_, err := m.Run(ctx, machine.Command{Argv: []string{"true"}, User: u, OutputLimit: 10})
			assertUnsupported(t, err, "user", "Run as "+u)
			if pm, ok := m.(machine.ProcessMachine); ok {
				_, err := pm.OpenProcess(ctx, machine.Command{Argv: []string{"true"}, User: u, OutputLimit: 10})
				assertUnsupported(t, err, "user", "OpenProcess as "+u)
			}
		}
		return
	}
	uid := strconv.Itoa(s.caps.UID)
	want(t, run(t, m, machine.Command{Argv: []string{"id", "-u"}, User: s.caps.User}), 0, uid+"\n", "")
	want(t, run(t, m, machine.Command{Argv: []string{"id", "-u"}, User: uid}), 0, uid+"\n", "")
	_, err := m.Run(ctx, machine.Command{Argv: []string{"id"}, User: "no-such-user", OutputLimit: 100})
	assertUnsupported(t, err, "user", "an unknown user")
	// A timed-out command of another user is stopped too.
	sh(t, m, "chmod 777 .")
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 & echo $! > user.pid; " + s.caps.block()}, User: s.caps.User, Timeout: s.caps.timeout()})
	if r.Reason != machine.TimedOut {
		t.Fatalf("reason %s", r.Reason)
	}
	s.stoppedChild(t, m, "user.pid", "a background child of another user's timed-out command")
}

// network: "deny" leaves only loopback; "allow" is honoured or refused as
// the backend declares.
func (s *suite) network(t *testing.T) {
	ctx := context.Background()
	m := s.machine(t, nil)
	if s.caps.Simulated {
		// No route but the factory's virtual ones (none here).
		if r := sh(t, m, "curl -s -m 2 http://192.0.2.1/"); Code(r) == 0 {
			t.Fatalf("an HTTP request left a machine without network: %+v", r)
		}
	} else {
		want(t, sh(t, m, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '"), 0, "lo ", "")
	}
	allow := s.spec(func(sp *machine.Spec) { sp.Network = machine.NetworkAllow })
	if !s.caps.NetworkAllow {
		assertUnsupported(t, s.f.CheckEnvironment(machine.Requirements{}, allow), "network", "CheckEnvironment with network allow")
		m, err := s.f.Create(ctx, allow)
		if err == nil {
			m.Close(ctx)
		}
		assertUnsupported(t, err, "network", "Create with network allow")
		return
	}
	if err := s.f.CheckEnvironment(machine.Requirements{}, allow); err != nil {
		t.Fatalf("CheckEnvironment with network allow: %v", err)
	}
	m = s.machine(t, func(sp *machine.Spec) { sp.Network = machine.NetworkAllow })
	if r := sh(t, m, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | grep -vx lo"); Code(r) != 0 || len(bytes.TrimSpace(r.Stdout)) == 0 {
		t.Fatalf("network allow: no interface but loopback (%q)", r.Stderr)
	}
}

// closeCheck: Close is idempotent, stops a running command, and every
// later call gives ErrClosed.
func (s *suite) closeCheck(t *testing.T) {
	ctx := context.Background()
	m, err := s.f.Create(ctx, s.spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", s.caps.block()}, OutputLimit: 10})
		errc <- err
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if err := m.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("Close waited %v for a running command", d)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, machine.ErrClosed) {
			t.Fatalf("a command running during Close: %v, want ErrClosed", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("a command running during Close did not return")
	}
	for i := 0; i < 2; i++ {
		if err := m.Close(ctx); err != nil {
			t.Fatalf("Close again: %v", err)
		}
	}
	if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("Run after Close: %v", err)
	}
	host := t.TempDir()
	if err := os.WriteFile(host+"/f", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Upload(ctx, host+"/f", Workdir+"/f"); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("Upload after Close: %v", err)
	}
	if err := m.Download(ctx, Workdir, host+"/d", machine.DownloadOptions{}); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("Download after Close: %v", err)
	}
	if pm, ok := m.(machine.ProcessMachine); ok {
		if _, err := pm.OpenProcess(ctx, machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrClosed) {
			t.Fatalf("OpenProcess after Close: %v", err)
		}
	}
	if machine.KindOf(machine.ErrClosed) != machine.KindClosed {
		t.Fatal("ErrClosed's kind")
	}
	if s.caps.Released != nil {
		if err := s.caps.Released(ctx, m); err != nil {
			t.Fatalf("after Close: %v", err)
		}
	}
}
