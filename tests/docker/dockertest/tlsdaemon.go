package dockertest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// WritePKI writes a CA, a server certificate for 127.0.0.1 and a client
// certificate signed by it into dir, as the docker CLI's files (ca.pem,
// cert.pem, key.pem) and the daemon's (server-cert.pem, server-key.pem).
func WritePKI(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
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

// TLSDaemon is a second dockerd listening on a loopback TCP port with TLS.
type TLSDaemon struct {
	Host   string // tcp://127.0.0.1:port
	Certs  string // the client's DOCKER_CERT_PATH
	dir    string
	bridge string
	cmd    *exec.Cmd
	done   chan error
}

// StartTLSDaemon starts a dockerd of its own (data and exec roots in a
// temporary directory, a bridge of its own, no iptables rules) on a free
// loopback port with a fresh test CA; Stop (also run when the test ends)
// stops it. It must not run with --bridge none: a dockerd told so deletes
// the host's docker0, the default bridge of the host's own daemon.
func StartTLSDaemon(t testing.TB) *TLSDaemon {
	t.Helper()
	if _, err := exec.LookPath("dockerd"); err != nil {
		t.Fatal("dockerd is not installed: ", err)
	}
	// Short paths: the exec root holds unix sockets.
	dir, err := os.MkdirTemp("", "sbx-tls-")
	if err != nil {
		t.Fatal(err)
	}
	d := &TLSDaemon{Certs: filepath.Join(dir, "certs"), dir: dir, done: make(chan error, 1)}
	WritePKI(t, d.Certs)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d.Host = fmt.Sprintf("tcp://127.0.0.1:%d", ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	log, err := os.Create(filepath.Join(dir, "dockerd.log"))
	if err != nil {
		t.Fatal(err)
	}
	// A bridge of its own, on an address of the 198.18.0.0/15 benchmark
	// range (not routed), so the host's docker0 is left alone.
	port := ln.Addr().(*net.TCPAddr).Port
	d.bridge = fmt.Sprintf("sbxtls%d", port)
	for _, args := range [][]string{
		{"link", "add", d.bridge, "type", "bridge"},
		{"addr", "add", fmt.Sprintf("198.18.%d.1/24", port%250), "dev", d.bridge},
		{"link", "set", d.bridge, "up"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			_ = exec.Command("ip", "link", "del", d.bridge).Run()
			log.Close()
			t.Fatalf("ip %v: %v: %s", args, err, out)
		}
	}
	c := filepath.Join(d.Certs, "")
	d.cmd = exec.Command("dockerd", "-H", d.Host, "--tlsverify",
		"--tlscacert", filepath.Join(c, "ca.pem"), "--tlscert", filepath.Join(c, "server-cert.pem"), "--tlskey", filepath.Join(c, "server-key.pem"),
		"--data-root", filepath.Join(dir, "d"), "--exec-root", filepath.Join(dir, "x"), "--pidfile", filepath.Join(dir, "pid"),
		"--bridge", d.bridge, "--iptables=false", "--ip6tables=false")
	d.cmd.Stdout, d.cmd.Stderr = log, log
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := d.cmd.Start(); err != nil {
		_ = exec.Command("ip", "link", "del", d.bridge).Run()
		log.Close()
		t.Fatal(err)
	}
	go func() { d.done <- d.cmd.Wait(); log.Close() }()
	t.Cleanup(func() {
		d.Stop()
		_ = exec.Command("ip", "link", "del", d.bridge).Run()
		os.RemoveAll(dir)
	})
	return d
}

// Log is the daemon's log so far.
func (d *TLSDaemon) Log() string {
	b, _ := os.ReadFile(filepath.Join(d.dir, "dockerd.log"))
	return string(b)
}

// Stop ends the daemon (and the containerd it started) and waits for it.
func (d *TLSDaemon) Stop() {
	if d.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(30 * time.Second):
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
		<-d.done
	}
	d.done <- nil // later Stops return at once
}
