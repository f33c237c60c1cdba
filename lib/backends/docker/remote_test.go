package docker_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// pki writes a CA, a server certificate for 127.0.0.1 and a client
// certificate signed by it into dir, as the docker CLI's files (ca.pem,
// cert.pem, key.pem) and the daemon's (server-cert.pem, server-key.pem).
func pki(t *testing.T, dir string) {
	t.Helper()
	write := func(name, typ string, der []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	key := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	caKey := key()
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "shellbox test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	write("ca.pem", "CERTIFICATE", caDER)
	for i, c := range []struct {
		cert, key string
		usage     x509.ExtKeyUsage
	}{{"server-cert.pem", "server-key.pem", x509.ExtKeyUsageServerAuth}, {"cert.pem", "key.pem", x509.ExtKeyUsageClientAuth}} {
		k := key()
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(int64(i + 2)), Subject: pkix.Name{CommonName: c.cert},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{c.usage},
			IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kb, err := x509.MarshalECPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		write(c.cert, "CERTIFICATE", der)
		write(c.key, "EC PRIVATE KEY", kb)
	}
}

// A second dockerd on a loopback TCP port with TLS (a test CA): a factory
// reaches it with DOCKER_TLS_VERIFY and DOCKER_CERT_PATH as the docker CLI
// would, runs a machine there, and without a client certificate, or with
// another CA's, it is refused with an error that says so.
func TestRemoteHostTLS(t *testing.T) {
	if _, err := exec.LookPath("dockerd"); err != nil {
		t.Fatal("dockerd is not installed: ", err)
	}
	dir, err := os.MkdirTemp("", "sbx-tls-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	certs := filepath.Join(dir, "certs")
	if err := os.MkdirAll(certs, 0o700); err != nil {
		t.Fatal(err)
	}
	pki(t, certs)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	host := fmt.Sprintf("tcp://127.0.0.1:%d", port)
	log, err := os.Create(filepath.Join(dir, "dockerd.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	// Short paths: the exec root holds unix sockets.
	d := exec.Command("dockerd", "-H", host, "--tlsverify",
		"--tlscacert", filepath.Join(certs, "ca.pem"), "--tlscert", filepath.Join(certs, "server-cert.pem"), "--tlskey", filepath.Join(certs, "server-key.pem"),
		"--data-root", filepath.Join(dir, "d"), "--exec-root", filepath.Join(dir, "x"), "--pidfile", filepath.Join(dir, "pid"),
		"--bridge", "none", "--iptables=false", "--ip6tables=false")
	d.Stdout, d.Stderr = log, log
	d.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-d.Process.Pid, syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- d.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-d.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}()
	t.Setenv(docker.EnvTLSVerify, "1")
	t.Setenv(docker.EnvCertPath, certs)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var f *docker.Factory
	for deadline := time.Now().Add(60 * time.Second); ; {
		if f, err = docker.New(ctx, docker.Config{Host: host}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(dir, "dockerd.log"))
			t.Fatalf("the TLS daemon did not answer: %v\n%s", err, b)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if f.Host() != host {
		t.Fatalf("host %s", f.Host())
	}
	if err := dockertest.EnsureBusybox(ctx, f.Client()); err != nil {
		t.Fatal(err)
	}
	m, err := f.Create(ctx, machine.Spec{Source: dockertest.Busybox, Workdir: "/workspace", Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "echo over tls; pwd"}, OutputLimit: 100})
	if err != nil || string(r.Stdout) != "over tls\n/workspace\n" {
		t.Fatalf("%+v %v", r, err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}

	// Another CA's certificates: the daemon is not trusted, nor is the client.
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	pki(t, other)
	t.Setenv(docker.EnvCertPath, other)
	_, err = docker.New(ctx, docker.Config{Host: host})
	var su *machine.SandboxUnavailable
	if !errors.As(err, &su) || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("a daemon of another CA: %v", err)
	}
	// No client certificate at all: refused before connecting, naming the file.
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(docker.EnvCertPath, empty)
	if _, err = docker.New(ctx, docker.Config{Host: host}); !errors.As(err, &su) || !strings.Contains(err.Error(), "ca.pem") {
		t.Fatalf("missing certificates: %v", err)
	}
	// Without TLS the daemon does not speak to us.
	t.Setenv(docker.EnvTLSVerify, "")
	if _, err = docker.New(ctx, docker.Config{Host: host}); !errors.As(err, &su) {
		t.Fatalf("plain HTTP to a TLS daemon: %v", err)
	}
}
