package docker_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// sshServer is a real OpenSSH daemon on a free loopback port that lets root
// in with one key; its ssh client configuration is in Config.
type sshServer struct {
	Port   int
	Config string // an ssh_config trusting the host key and using the client key
}

func startSSHD(t *testing.T) sshServer {
	t.Helper()
	sshd, err := exec.LookPath("/usr/sbin/sshd")
	if err != nil {
		t.Fatalf("openssh-server is required (apt-get install -y openssh-server): %v", err)
	}
	dir := t.TempDir()
	keygen := func(name string) {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", filepath.Join(dir, name)).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	keygen("host")
	keygen("client")
	clientPub, err := os.ReadFile(filepath.Join(dir, "client.pub"))
	if err != nil {
		t.Fatal(err)
	}
	hostPub, err := os.ReadFile(filepath.Join(dir, "host.pub"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	auth := write("authorized_keys", string(clientPub))
	// sshd's privilege separation directory; packages create it at boot.
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	// StrictModes off: the key files live under the world-writable /tmp.
	conf := write("sshd_config", fmt.Sprintf(`ListenAddress 127.0.0.1:%d
HostKey %s
AuthorizedKeysFile %s
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
`, port, filepath.Join(dir, "host"), auth))
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, sshd, "-D", "-e", "-f", conf)
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	known := write("known_hosts", fmt.Sprintf("[127.0.0.1]:%d %s", port, hostPub))
	cfg := write("ssh_config", fmt.Sprintf(`Host *
  IdentityFile %s
  IdentitiesOnly yes
  UserKnownHostsFile %s
  StrictHostKeyChecking yes
  BatchMode yes
`, filepath.Join(dir, "client"), known))
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd did not listen: %v\n%s", err, log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	return sshServer{Port: port, Config: cfg}
}

// useSSHConfig makes the ssh the Docker connection helper runs read cfg:
// ssh takes its per-user configuration from the password database's home,
// not $HOME, so a wrapper first in PATH passes -F, as a user's ~/.ssh/config
// would be read.
func useSSHConfig(t *testing.T, cfg string) {
	t.Helper()
	real, err := exec.LookPath("ssh")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nexec %s -F %s \"$@\"\n", real, cfg)
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// sshChildren counts this test process's ssh children: the connection
// helper's, which closing the client must end.
func sshChildren(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n, self := 0, strconv.Itoa(os.Getpid())
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || !strings.HasSuffix(s[:i], "(ssh") {
			continue
		}
		if f := strings.Fields(s[i+1:]); len(f) > 1 && f[1] == self {
			n++
		}
	}
	return n
}

// DockerMachineFactory(host="ssh://root@127.0.0.1:PORT") as the docker CLI
// does it: a real sshd on loopback, the connection helper running
// `docker system dial-stdio` there against the local dockerd; a machine
// runs, streams a process, and closing the client ends every ssh. A host
// key the client does not trust is refused with ssh's own error.
func TestRemoteHostSSH(t *testing.T) {
	srv := startSSHD(t)
	useSSHConfig(t, srv.Config)
	t.Setenv("DOCKER_HOST", "")
	t.Setenv(docker.EnvTLSVerify, "")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	host := fmt.Sprintf("ssh://root@127.0.0.1:%d", srv.Port)
	f, err := docker.New(ctx, docker.Config{Host: host})
	if err != nil {
		t.Fatal(err)
	}
	if f.Host() != host {
		t.Fatalf("host %s", f.Host())
	}
	if err := dockertest.EnsureBusybox(ctx, f.Client()); err != nil {
		t.Fatal(err)
	}
	m, err := f.CreateMachine(ctx, machine.Spec{Source: dockertest.Busybox, Workdir: "/workspace", Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "echo over ssh; pwd"}, OutputLimit: 100})
	if err != nil || string(r.Stdout) != "over ssh\n/workspace\n" {
		t.Fatalf("%+v %v", r, err)
	}
	// A process's streams run through the same tunnel (a hijacked connection).
	p, err := m.OpenProcess(ctx, machine.Command{Argv: []string{"cat"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Stdin().Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(p.Stdout(), buf); err != nil || string(buf) != "ping\n" {
		t.Fatalf("echo through ssh: %q %v", buf, err)
	}
	p.Stdin().Close()
	if exit, err := p.Wait(ctx); err != nil || exit.ExitCode != 0 {
		t.Fatalf("%+v %v", exit, err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if sshChildren(t) == 0 {
		t.Fatal("no ssh connection helper ran: the factory did not go through ssh")
	}
	f.Client().Close()
	for deadline := time.Now().Add(20 * time.Second); sshChildren(t) > 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d ssh processes outlive the client", sshChildren(t))
		}
	}

	// A host key that is not the one known: ssh refuses, and so does New.
	bad := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(bad, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "ssh_config")
	text := strings.Replace(string(cfg), "UserKnownHostsFile ", "UserKnownHostsFile "+bad+" #", 1)
	if err := os.WriteFile(other, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	useSSHConfig(t, other)
	_, err = docker.New(ctx, docker.Config{Host: host})
	var su *machine.SandboxUnavailable
	if !errors.As(err, &su) || !strings.Contains(err.Error(), "Host key verification failed") {
		t.Fatalf("an unknown host key: %v", err)
	}
	// Not a valid ssh address: refused before any connection, naming it.
	if _, err = docker.New(ctx, docker.Config{Host: "ssh://root@127.0.0.1:22/x?y=1"}); !errors.As(err, &su) {
		t.Fatalf("a malformed ssh host: %v", err)
	}
}
