package qemu

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/image"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
)

// importBashImage imports into the local Docker daemon an image holding
// the host's Bash with its libraries and busybox, so that tests have a
// Bash image without a registry.
func importBashImage(t *testing.T, f *Factory, ref string) {
	t.Helper()
	cli, err := f.dockerClient()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	file := func(name, src string, mode int64) {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: mode, Size: int64(len(data))})
		tw.Write(data)
	}
	for _, d := range []string{"bin/", "etc/", "root/", "lib/", "lib/x86_64-linux-gnu/", "lib64/"} {
		tw.WriteHeader(&tar.Header{Name: d, Typeflag: tar.TypeDir, Mode: 0o755})
	}
	bb, _ := exec.LookPath("busybox")
	file("bin/busybox", bb, 0o755)
	out, _ := exec.Command(bb, "--list").Output()
	for _, a := range strings.Fields(string(out)) {
		if a != "busybox" && a != "bash" {
			tw.WriteHeader(&tar.Header{Name: "bin/" + a, Typeflag: tar.TypeSymlink, Linkname: "busybox"})
		}
	}
	file("bin/bash", "/bin/bash", 0o755)
	ldd, err := exec.Command("ldd", "/bin/bash").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(ldd), "\n") {
		for _, f := range strings.Fields(l) {
			if strings.HasPrefix(f, "/") {
				real, err := filepath.EvalSymlinks(f)
				if err != nil {
					t.Fatal(err)
				}
				file(strings.TrimPrefix(f, "/"), real, 0o755)
			}
		}
	}
	passwd := "root:x:0:0:root:/root:/bin/bash\n"
	tw.WriteHeader(&tar.Header{Name: "etc/passwd", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(passwd))})
	io.WriteString(tw, passwd)
	tw.Close()
	rc, err := cli.ImageImport(context.Background(), image.ImportSource{Source: &buf, SourceName: "-"}, ref,
		image.ImportOptions{Changes: []string{"ENV PATH=/bin", "ENV FROM_DOCKER=yes", "WORKDIR /root"}, Platform: "linux/amd64"})
	if err != nil {
		t.Fatalf("importing the test image (the test needs the local Docker daemon): %v", err)
	}
	io.Copy(io.Discard, rc)
	rc.Close()
	t.Cleanup(func() { cli.ImageRemove(context.Background(), ref, image.RemoveOptions{Force: true}) })
}

// TestDockerImageWithBashShellSession boots an image exported from the
// local Docker daemon and drives a persistent Bash through a terminal in
// the guest: state persists between commands, Ctrl-C interrupts, exit
// resets the shell.
func TestDockerImageWithBashShellSession(t *testing.T) {
	f := newTestFactory(t, Options{})
	const ref = "shellbox-qemu-test/bash:latest"
	importBashImage(t, f, ref)
	spec := testSpec()
	spec.Source = machine.DockerImage{Reference: ref}
	m := newTestMachine(t, f, spec)
	ctx := context.Background()

	r := run(t, m, machine.Command{Argv: []string{"bash", "-c", `echo "$FROM_DOCKER $BASH_VERSION"`}})
	if !strings.HasPrefix(string(r.Stdout), "yes 5.") {
		t.Fatalf("got %q %q", r.Stdout, r.Stderr)
	}

	s := shell.NewTerminalSession(m, shell.Options{Bash: "/bin/bash"})
	defer s.Close(ctx)
	u, err := s.Execute(ctx, "cd /tmp && X=$((6*7))", 60*time.Second, 1<<20)
	if err != nil || u.Status != shell.Completed || *u.ExitCode != 0 {
		t.Fatalf("first command: %+v %v", u, err)
	}
	u, err = s.Execute(ctx, `echo "$X $PWD"; tty`, 60*time.Second, 1<<20)
	if err != nil || u.Status != shell.Completed || !strings.Contains(string(u.Output), "42 /tmp") || !strings.Contains(string(u.Output), "/dev/pts/") {
		t.Fatalf("state did not persist: %+v %q %v", u, u.Output, err)
	}
	u, err = s.Execute(ctx, "sleep 1000", 300*time.Millisecond, 1<<20)
	if err != nil || u.Status != shell.Running {
		t.Fatalf("sleep: %+v %v", u, err)
	}
	if err := s.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	u, err = s.Read(ctx, 60*time.Second, 1<<20)
	if err != nil || u.Status != shell.Completed || *u.ExitCode != 130 {
		t.Fatalf("interrupted: %+v %v", u, err)
	}
	u, err = s.Execute(ctx, "exit 3", 60*time.Second, 1<<20)
	if err != nil || u.Status != shell.Reset {
		t.Fatalf("exit: %+v %v", u, err)
	}
	u, err = s.Execute(ctx, "echo fresh $PWD", 60*time.Second, 1<<20)
	if err != nil || u.Status != shell.Completed || !strings.Contains(string(u.Output), "fresh /workspace") {
		t.Fatalf("after reset: %+v %q %v", u, u.Output, err)
	}
}
