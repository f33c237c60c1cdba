package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/docker/docker/client"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// binDir holds the shellbox command and the helpers it runs, built once.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "shellbox-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_, file, _, _ := runtime.Caller(0)
	build := exec.Command("go", "build", "-tags", oci.BuildTag, "-o", dir+"/", "./cmd/shellbox", "./cmd/shellbox-sandboxd", "./cmd/shellbox-guest")
	build.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the command: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	binDir = dir
	// The in-process tests find the local backend's helper here.
	os.Setenv("SHELLBOX_BIN_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// call runs the command in this process.
func call(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestHelp(t *testing.T) {
	for _, sub := range []string{"doctor", "run", "shell", "bench"} {
		t.Run(sub, func(t *testing.T) {
			code, out, errs := call(t, "", sub, "--help")
			if code != 0 || !strings.HasPrefix(out, "usage: shellbox "+sub) || !strings.Contains(out, "-backend") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
		})
	}
	code, out, _ := call(t, "", "--help")
	if code != 0 || !strings.Contains(out, "doctor") || !strings.Contains(out, "bench") {
		t.Fatalf("shellbox --help: exit %d, %q", code, out)
	}
	if code, _, errs := call(t, ""); code != ExitUsage || !strings.Contains(errs, "usage:") {
		t.Fatalf("no command: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := call(t, "", "frobnicate"); code != ExitUsage || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: exit %d, stderr %q", code, errs)
	}
	// The installed binary, too: --help of every subcommand exits 0.
	for _, sub := range []string{"doctor", "run", "shell", "bench"} {
		out, err := exec.Command(filepath.Join(binDir, "shellbox"), sub, "--help").Output()
		if err != nil || !strings.HasPrefix(string(out), "usage: shellbox "+sub) {
			t.Fatalf("shellbox %s --help: %v, %q", sub, err, out)
		}
	}
}

func TestDoctorTable(t *testing.T) {
	code, out, errs := call(t, "", "doctor", "--backend", "local,shellsim")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, re := range []string{
		`^BACKEND\s+STATUS\s+DETAILS\n`,
		`(?m)^local\s+ok\s+bwrap: /\S+ \(bubblewrap \d`,
		`(?m)^\s+pids cgroup: `,
		`(?m)^\s+user namespaces: `,
		`(?m)^\s+test machine: create\+run true\+close in `,
		`(?m)^shellsim\s+ok\s+test machine: `,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("table does not match %s:\n%s", re, out)
		}
	}
	// Aligned: every backend's STATUS starts in the same column.
	col := strings.Index(out, "STATUS")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "local") || strings.HasPrefix(line, "shellsim") {
			if !strings.HasPrefix(line[col:], "ok") {
				t.Errorf("status not in column %d: %q", col, line)
			}
		}
	}
}

func TestDoctorJSON(t *testing.T) {
	code, out, errs := call(t, "", "doctor", "--json", "--backend", "shellsim,local")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var reports []Report
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(reports) != 2 || reports[0].Backend != "shellsim" || reports[1].Backend != "local" {
		t.Fatalf("reports not in the order asked: %+v", reports)
	}
	for _, r := range reports {
		if !r.OK || r.Reason != "" {
			t.Errorf("%s: not ok: %+v", r.Backend, r)
		}
	}
	names := map[string]string{}
	for _, d := range reports[1].Details {
		names[d.Name] = d.Value
	}
	if !strings.HasPrefix(names["bwrap"], "/") || names["pids cgroup"] == "" {
		t.Errorf("local details miss bwrap or pids cgroup: %+v", reports[1].Details)
	}
}

// deadSocket is a Unix socket path nothing listens on any more.
func deadSocket(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "docker.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	return path
}

func TestDoctorUnavailableDocker(t *testing.T) {
	sock := deadSocket(t)
	t.Setenv("DOCKER_HOST", "unix://"+sock)
	code, out, errs := call(t, "", "doctor", "--backend", "docker,local")
	if code != ExitUnavailable {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitUnavailable, out, errs)
	}
	if !regexp.MustCompile(`(?m)^docker\s+unavailable\s`).MatchString(out) || !regexp.MustCompile(`(?m)^local\s+ok\s`).MatchString(out) {
		t.Fatalf("table:\n%s", out)
	}
	why := regexp.MustCompile(`(?m)^\s+why: (.*)$`).FindStringSubmatch(out)
	if why == nil || !strings.Contains(why[1], "cannot reach the Docker daemon at unix://"+sock) || !strings.Contains(why[1], "connect") {
		t.Fatalf("no reason naming the dead socket:\n%s", out)
	}

	code, out, _ = call(t, "", "doctor", "--json", "--backend", "gvisor")
	var reports []Report
	if err := json.Unmarshal([]byte(out), &reports); err != nil || code != ExitUnavailable {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if reports[0].OK || !strings.Contains(reports[0].Reason, sock) {
		t.Fatalf("gvisor on a dead daemon: %+v", reports[0])
	}
}

// TestDoctorQemu: QEMU is reported with its binary, version, kernel and
// accelerator, proven by a boot; without QEMU the reason says so.
func TestDoctorQemu(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // boot assets and the KVM verdict
	code, out, errs := call(t, "", "doctor", "--backend", "qemu")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, re := range []string{
		`(?m)^qemu\s+ok\s+qemu: /\S+ \(QEMU emulator version \d`,
		`(?m)^\s+kernel: /`,
		`(?m)^\s+accel: (KVM|TCG, slow \(KVM: .+\))$`,
		`(?m)^\s+test boot: a bare guest booted in `,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("table does not match %s:\n%s", re, out)
		}
	}
	// Nothing on PATH: QEMU and bubblewrap are missing, and say so.
	t.Setenv("PATH", t.TempDir())
	code, out, _ = call(t, "", "doctor", "--json", "--backend", "qemu,local")
	var reports []Report
	if err := json.Unmarshal([]byte(out), &reports); err != nil || code != ExitUnavailable {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if reports[0].OK || !strings.Contains(reports[0].Reason, "qemu-system-x86_64 on PATH") {
		t.Fatalf("no QEMU on PATH: %+v", reports[0])
	}
	if reports[1].OK || !strings.Contains(reports[1].Reason, "bwrap on PATH") || reports[1].Details[0] != (Detail{"bwrap", "not on PATH"}) {
		t.Fatalf("no bwrap on PATH: %+v", reports[1])
	}
}

func TestDoctorUsage(t *testing.T) {
	if code, _, errs := call(t, "", "doctor", "--backend", "nosuch"); code != ExitUsage || !strings.Contains(errs, `unknown backend "nosuch"`) {
		t.Fatalf("exit %d, %q", code, errs)
	}
	if code, _, _ := call(t, "", "doctor", "--frob"); code != ExitUsage {
		t.Fatalf("bad flag: exit %d", code)
	}
}

func TestRunExitStatusAndBytes(t *testing.T) {
	cases := []struct {
		backend, script, stdout string
		code                    int
	}{
		{"local", `printf 'a\000b\377\n'; echo err >&2; exit 7`, "a\x00b\xff\n", 7},
		{"local", `exit 0`, "", 0},
		{"local", `kill -TERM $$`, "", 128 + 15},
		{"shellsim", `printf 'one\ntwo\n'; echo err >&2; exit 7`, "one\ntwo\n", 7},
		{"shellsim", `true`, "", 0},
	}
	for _, c := range cases {
		t.Run(c.backend, func(t *testing.T) {
			code, out, errs := call(t, "", "run", "--backend", c.backend, "--", "sh", "-c", c.script)
			if code != c.code || out != c.stdout {
				t.Fatalf("%s: exit %d (want %d), stdout %q (want %q), stderr %q", c.script, code, c.code, out, c.stdout, errs)
			}
			if strings.Contains(c.script, "err >&2") && !strings.Contains(errs, "err\n") {
				t.Fatalf("stderr lost: %q", errs)
			}
		})
	}
	for _, backend := range []string{"local", "shellsim"} {
		code, _, errs := call(t, "", "run", "--backend", backend, "--", "no-such-program-xyz")
		if code != 127 {
			t.Errorf("%s: missing program: exit %d, stderr %q", backend, code, errs)
		}
	}
}

func TestRunEnvWorkdirStdin(t *testing.T) {
	for _, backend := range []string{"local", "shellsim"} {
		code, out, errs := call(t, "piped input\n", "run", "--backend", backend, "-e", "GREETING=hello there", "--workdir", "/tmp",
			"--", "sh", "-c", `echo "$GREETING"; pwd; cat`)
		if want := "hello there\n/tmp\npiped input\n"; code != 0 || out != want {
			t.Errorf("%s: exit %d, stdout %q (want %q), stderr %q", backend, code, out, want, errs)
		}
	}
}

func TestRunTimeout(t *testing.T) {
	for _, c := range []struct{ backend, script string }{
		{"local", "echo started; sleep 37.25"},
		{"shellsim", "echo started; while true; do :; done"},
	} {
		t.Run(c.backend, func(t *testing.T) {
			start := time.Now()
			code, _, errs := call(t, "", "run", "--backend", c.backend, "--timeout", "1.5", "--", "sh", "-c", c.script)
			if code != ExitTimeout || !strings.Contains(errs, "timed out after 1.5s") {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			if took := time.Since(start); took < 1500*time.Millisecond || took > 20*time.Second {
				t.Fatalf("took %v", took)
			}
		})
	}
	// Nothing of the timed-out command is left on the host.
	if out, err := exec.Command("pgrep", "-f", "sleep 37.25").Output(); err == nil {
		t.Fatalf("the timed-out command still runs: %s", out)
	}
}

// TestRunStreams reads the first line while the command still runs.
func TestRunStreams(t *testing.T) {
	r, w := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"run", "--timeout", "6", "--", "sh", "-c", "echo first; sleep 29.5; echo never"},
			IO{Stdin: strings.NewReader(""), Stdout: w, Stderr: io.Discard})
		w.Close()
	}()
	lines := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(r).ReadString('\n')
		lines <- l
		io.Copy(io.Discard, r)
	}()
	select {
	case l := <-lines:
		if l != "first\n" {
			t.Fatalf("first line %q", l)
		}
	case code := <-done:
		t.Fatalf("the command ended (exit %d) before its output arrived", code)
	case <-time.After(10 * time.Second):
		t.Fatal("no output while the command runs: not streamed")
	}
	select {
	case code := <-done:
		t.Fatalf("exited %d before the sleep", code)
	default:
	}
	// Let it time out rather than leave it running.
	if code := <-done; code != ExitTimeout {
		t.Fatalf("exit %d", code)
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run"},
		{"run", "--backend", "local"},
		{"run", "--backend", "nosuch", "--", "true"},
		{"run", "--timeout", "soon", "--", "true"},
		{"run", "-e", "NOEQUALS", "--", "true"},
		{"run", "--network", "sometimes", "--", "true"},
		{"run", "--backend", "docker", "--", "true"},
		{"run", "--image", "host", "--task", ".", "--", "true"},
	} {
		if code, _, errs := call(t, "", args...); code != ExitFailure || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

func TestTaskSource(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := taskSource("docker", dir); err == nil {
		t.Fatal("a directory without task.toml was accepted")
	}
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("version = \"1.0\"\n[environment]\ndocker_image = \"example.org/img:1\"\nworkdir = \"/app\"\n"), 0o644)
	if src, wd, err := taskSource("docker", dir); err != nil || src != (machine.RegistryImage{Reference: "example.org/img:1"}) || wd != "/app" {
		t.Fatalf("docker_image: %#v, %q, %v", src, wd, err)
	}
	if src, _, err := taskSource("qemu", dir); err != nil || src != (machine.DockerImage{Reference: "example.org/img:1"}) {
		t.Fatalf("docker_image for qemu: %#v, %v", src, err)
	}
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("[environment]\ncpus = 1\n"), 0o644)
	if _, _, err := taskSource("docker", dir); err == nil || !strings.Contains(err.Error(), "no [environment] docker_image") {
		t.Fatalf("no image and no Dockerfile: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "environment"), 0o755)
	os.WriteFile(filepath.Join(dir, "environment", "Dockerfile"), []byte("FROM scratch\n"), 0o644)
	want := machine.DockerfileSource{Context: filepath.Join(dir, "environment"), Dockerfile: "Dockerfile"}
	if src, wd, err := taskSource("docker", dir); err != nil || src != want || wd != "" {
		t.Fatalf("Dockerfile: %#v, %q, %v", src, wd, err)
	}
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("[environment\n"), 0o644)
	if _, _, err := taskSource("docker", dir); err == nil {
		t.Fatal("malformed task.toml accepted")
	}
}

func TestImageParsing(t *testing.T) {
	for _, c := range []struct {
		backend, image string
		want           machine.Source
	}{
		{"local", "", machine.HostImage{}},
		{"shellsim", "", machine.ShellSimBuiltins{}},
		{"docker", "docker:alpine:3", machine.DockerImage{Reference: "alpine:3"}},
		{"docker", "alpine:3", machine.RegistryImage{Reference: "alpine:3"}},
		{"qemu", "alpine:3", machine.DockerImage{Reference: "alpine:3"}},
		{"local", "oci:/x@sha256:ab", machine.PreparedImage{Layout: "/x", ManifestDigest: "sha256:ab"}},
		{"qemu", "qemu:/b", machine.QemuBundle{Path: "/b"}},
	} {
		got, err := parseImage(c.backend, c.image)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s %q: %#v, %v", c.backend, c.image, got, err)
		}
	}
	for _, bad := range []string{"oci:/x", "dockerfile:/nonexistent"} {
		if _, err := parseImage("local", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := parseImage("docker", ""); err == nil {
		t.Error("docker without an image accepted")
	}
}

// TestShellPTY drives `shellbox shell` on a real pseudo-terminal, as a
// person would: it types a command and exit, and the shell's status is
// the command's.
func TestShellPTY(t *testing.T) {
	for _, c := range []struct {
		typed string
		code  int
		want  string // a line of output (the typed line is echoed too)
	}{
		{"echo hi; exit\r", 0, `(?m)^\r?hi\r$`},
		{"echo hi; exit 3\r", 3, `(?m)^\r?hi\r$`},
		// The machine's terminal has the host terminal's size.
		{"stty size; exit 4\r", 4, `(?m)^\r?30 100\r$`},
	} {
		cmd := exec.Command(filepath.Join(binDir, "shellbox"), "shell", "--backend", "local")
		cmd.Env = append(os.Environ(), "TERM=dumb")
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		read := make(chan struct{})
		go func() { io.Copy(&out, f); close(read) }()
		time.Sleep(500 * time.Millisecond) // typed before the shell starts, it is kept by the terminal anyway
		if _, err := f.Write([]byte(c.typed)); err != nil {
			t.Fatal(err)
		}
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		select {
		case err = <-waited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-waited
			f.Close()
			t.Fatalf("the shell did not exit; output %q", out.String())
		}
		f.Close()
		<-read
		if got := cmd.ProcessState.ExitCode(); got != c.code {
			t.Fatalf("%q: exit %d (%v), want %d; output %q", c.typed, got, err, c.code, out.String())
		}
		// The typed line is echoed as "echo hi; exit"; only the command's
		// output is "hi" on a line of its own.
		if !regexp.MustCompile(c.want).MatchString(out.String()) {
			t.Fatalf("%q: no output line %s in %q", c.typed, c.want, out.String())
		}
	}
}

func TestBench(t *testing.T) {
	code, out, errs := call(t, "", "bench", "--backend", "shellsim,local", "--budget", "400ms")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, b := range []string{"shellsim", "local"} {
		if !regexp.MustCompile(`(?m)^\s*` + b + `\s+\d+\.\d\d ms\s+\d+\.\d\d ms\s+\d+\.\d\d ms\s+\d+/\d+`).MatchString(out) {
			t.Errorf("no figures for %s:\n%s", b, out)
		}
	}
	code, out, _ = call(t, "", "bench", "--backend", "local", "--budget", "200ms", "--json")
	var figs []Figures
	if err := json.Unmarshal([]byte(out), &figs); err != nil || code != 0 || len(figs) != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	f := figs[0]
	if f.Skipped != "" || f.Cycle <= 0 || f.Run <= 0 || f.Spawn <= 0 || f.Cycles < 3 || f.Runs < 5 || f.Cycle < f.Run {
		t.Fatalf("implausible figures %+v", f)
	}
	// A backend that needs an image and has none is skipped, saying why;
	// asked for by name, that is exit 1.
	code, out, _ = call(t, "", "bench", "--backend", "docker")
	if code != ExitUnavailable || !strings.Contains(out, "skipped: needs --image") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// busybox imports the Docker tests' busybox image and holds their shared
// lock (no test restarts the daemon meanwhile) until the test ends.
func busybox(t *testing.T) {
	lock, err := dockertest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lock.Release)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if err := dockertest.EnsureBusybox(ctx, cli); err != nil {
		t.Fatal(err)
	}
}

// TestDoctorDocker: a reachable daemon is reported with its storage
// driver, gVisor with runsc registered, and with --image both prove it
// with a machine.
func TestDoctorDocker(t *testing.T) {
	busybox(t)
	code, out, errs := call(t, "", "doctor", "--backend", "docker,gvisor", "--image", "docker:"+dockertest.BusyboxImage)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, re := range []string{
		`(?m)^docker\s+ok\s+daemon: unix://`,
		`(?m)^\s+storage driver: \w+`,
		`(?m)^gvisor\s+ok\s`,
		`(?m)^\s+runtime: runsc registered \(/\S*runsc`,
		`(?m)^\s+test machine: create\+run true\+close in [^\n]*\n(gvisor|$)`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("table does not match %s:\n%s", re, out)
		}
	}
	if n := strings.Count(out, "test machine: create+run true+close"); n != 2 {
		t.Errorf("%d test machines, want 2:\n%s", n, out)
	}
}

// TestRunTaskDockerfile builds a Harbor task's environment/Dockerfile with
// the Docker backend and runs a command in it.
func TestRunTaskDockerfile(t *testing.T) {
	busybox(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("[environment]\nbuild_timeout_sec = 600.0\nworkdir = \"/srv\"\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "environment"), 0o755)
	os.WriteFile(filepath.Join(dir, "environment", "Dockerfile"), []byte("FROM "+dockertest.BusyboxImage+"\nCOPY marker /marker\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "environment", "marker"), []byte("from the task\n"), 0o644)
	code, out, errs := call(t, "", "run", "--backend", "docker", "--task", dir, "--", "sh", "-c", "cat /marker; pwd")
	if code != 0 || out != "from the task\n/srv\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestRunInterrupt: Ctrl-C (SIGINT) closes the machine, the command with
// it, and exits 130.
func TestRunInterrupt(t *testing.T) {
	cmd := exec.Command(filepath.Join(binDir, "shellbox"), "run", "--", "sh", "-c", "echo started; sleep 41.75")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "started\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("first line %q, stderr %q", line, stderr.String())
	}
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-waited
		t.Fatal("Ctrl-C did not end shellbox run")
	}
	if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted {
		t.Fatalf("exit %d after %v, stderr %q", code, time.Since(start), stderr.String())
	}
	if out, err := exec.Command("pgrep", "-f", "sleep 41.75").Output(); err == nil {
		t.Fatalf("the command outlived Ctrl-C: %s", out)
	}
}

// TestRunBrokenPipe: when the reader of shellbox's stdout goes away
// (shellbox run -- yes | head -1), the command is stopped, the machine
// closed, and the exit is 141 as for SIGPIPE, not a kill of shellbox that
// leaves the machine to its lifeline.
func TestRunBrokenPipe(t *testing.T) {
	cmd := exec.Command(filepath.Join(binDir, "shellbox"), "run", "--", "yes", "shellbox-broken-pipe")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	stdout.Close()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-waited
		t.Fatal("shellbox run kept running after its stdout closed")
	}
	if line != "shellbox-broken-pipe\n" {
		t.Fatalf("first line %q", line)
	}
	if ws := cmd.ProcessState; ws.ExitCode() != ExitBrokenPipe {
		t.Fatalf("%v, want exit %d; stderr %q", ws, ExitBrokenPipe, stderr.String())
	}
	if out, err := exec.Command("pgrep", "-f", "yes shellbox-broken-pipe").Output(); err == nil {
		t.Fatalf("the command outlived its reader: %s", out)
	}
}

// TestShellShellSim: ShellSim's shell takes one command per line, keeps
// state between lines, and ends with exit (its status) or end of input.
func TestShellShellSim(t *testing.T) {
	code, out, errs := call(t, "x=kept; echo hi > f\ncat f; echo $x\n\nexit 5\necho never\n", "shell", "--backend", "shellsim")
	if code != 5 || out != "hi\nkept\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, _ = call(t, "echo a\nfalse\n", "shell", "--backend", "shellsim")
	if code != 1 || out != "a\n" {
		t.Fatalf("end of input: exit %d, stdout %q", code, out)
	}
}
