// Package dockertest holds the fixtures the docker and gvisor backend tests
// and benchmarks share: a busybox image imported from the host's static
// busybox (no registry is reachable from CI), a lock that serializes tests
// which restart the daemon, and leak counting by label.
package dockertest

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"
)

// BusyboxImage is the tag of the test image.
const BusyboxImage = "shellbox-test/busybox:latest"

// BusyboxPath is the static busybox the image is made from (Debian's
// busybox-static package).
const BusyboxPath = "/bin/busybox"

// TestUser is a non-root account of the image (uid TestUID).
const (
	TestUser = "sbx"
	TestUID  = 1000
)

var importMu sync.Mutex

// The fixture label marks images made by this version of BusyboxRootfs.
const (
	fixtureLabel   = "dev.shellbox.fixture"
	fixtureVersion = "busybox-1"
)

// EnsureBusybox imports the busybox image unless the daemon has it.
func EnsureBusybox(ctx context.Context, cli *client.Client) error {
	importMu.Lock()
	defer importMu.Unlock()
	if insp, err := cli.ImageInspect(ctx, BusyboxImage); err == nil && insp.Config != nil && insp.Config.Labels[fixtureLabel] == fixtureVersion {
		return nil
	}
	rootfs, err := BusyboxRootfs()
	if err != nil {
		return err
	}
	rc, err := cli.ImageImport(ctx, image.ImportSource{Source: bytes.NewReader(rootfs), SourceName: "-"}, BusyboxImage,
		image.ImportOptions{Changes: []string{
			"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			`CMD ["/bin/sh"]`,
			"LABEL " + fixtureLabel + "=" + fixtureVersion,
		}})
	if err != nil {
		return fmt.Errorf("importing %s: %w", BusyboxImage, err)
	}
	defer rc.Close()
	out, _ := io.ReadAll(rc)
	if bytes.Contains(out, []byte(`"error"`)) {
		return fmt.Errorf("importing %s: %s", BusyboxImage, out)
	}
	return nil
}

// BusyboxRootfs is a tar of a minimal root filesystem: the static busybox
// with a symbolic link per applet in /bin, /etc/passwd with root and
// TestUser, and the usual empty directories.
func BusyboxRootfs() ([]byte, error) { return BusyboxRootfsWith(nil) }

// BusyboxRootfsWith is BusyboxRootfs plus the given regular files (path
// relative to the root, mode 0644), e.g. a marker that gives the image a
// layer of its own.
func BusyboxRootfsWith(extra map[string]string) ([]byte, error) {
	bb, err := os.ReadFile(BusyboxPath)
	if err != nil {
		return nil, fmt.Errorf("%s (install busybox-static): %w", BusyboxPath, err)
	}
	list, err := exec.Command(BusyboxPath, "--list").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --list: %w", BusyboxPath, err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	mtime := time.Unix(1700000000, 0)
	dir := func(name string, mode int64) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, ModTime: mtime})
	}
	file := func(name string, mode int64, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data)), ModTime: mtime}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	for _, d := range []struct {
		name string
		mode int64
	}{{"bin", 0o755}, {"sbin", 0o755}, {"usr", 0o755}, {"usr/bin", 0o755}, {"etc", 0o755}, {"root", 0o700},
		{"home", 0o755}, {"home/" + TestUser, 0o755}, {"tmp", 0o1777}, {"var", 0o755}, {"proc", 0o755}, {"sys", 0o755}, {"dev", 0o755}} {
		if err := dir(d.name, d.mode); err != nil {
			return nil, err
		}
	}
	if err := file("bin/busybox", 0o755, bb); err != nil {
		return nil, err
	}
	for _, applet := range strings.Fields(string(list)) {
		if applet == "busybox" || strings.Contains(applet, "/") {
			continue
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: "bin/" + applet, Linkname: "busybox", Mode: 0o777, ModTime: mtime}); err != nil {
			return nil, err
		}
	}
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/bin/sh\n%s:x:%d:%d:%s:/home/%s:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n",
		TestUser, TestUID, TestUID, TestUser, TestUser)
	group := fmt.Sprintf("root:x:0:\n%s:x:%d:\nnogroup:x:65534:\n", TestUser, TestUID)
	if err := file("etc/passwd", 0o644, []byte(passwd)); err != nil {
		return nil, err
	}
	if err := file("etc/group", 0o644, []byte(group)); err != nil {
		return nil, err
	}
	for name, data := range extra {
		if err := file(name, 0o644, []byte(data)); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Lock coordinates test processes sharing one daemon: tests hold it
// shared, a test that restarts the daemon holds it exclusively.
type Lock struct{ f *os.File }

// LockPath is the lock file.
const LockPath = "/tmp/shellbox-docker-tests.lock"

// Shared takes the lock shared, waiting as needed.
func Shared() (*Lock, error) {
	f, err := os.OpenFile(LockPath, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		f.Close()
		return nil, err
	}
	return &Lock{f}, nil
}

// Exclusive converts the lock to exclusive, waiting for other processes
// to release theirs.
func (l *Lock) Exclusive() error { return syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX) }

// Downgrade converts the lock back to shared.
func (l *Lock) Downgrade() error { return syscall.Flock(int(l.f.Fd()), syscall.LOCK_SH) }

// Release drops the lock.
func (l *Lock) Release() { l.f.Close() }

// Counts are the daemon objects labelled as created by one backend, plus
// all volumes (anonymous volumes carry no label).
type Counts struct {
	Containers, Networks, Volumes, AllVolumes int
}

// Count counts the containers, networks and volumes with label=value.
func Count(ctx context.Context, cli *client.Client, label, value string) (Counts, error) {
	f := filters.NewArgs(filters.Arg("label", label+"="+value))
	var c Counts
	cs, err := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return c, err
	}
	ns, err := cli.NetworkList(ctx, network.ListOptions{Filters: f})
	if err != nil {
		return c, err
	}
	vs, err := cli.VolumeList(ctx, volume.ListOptions{Filters: f})
	if err != nil {
		return c, err
	}
	all, err := cli.VolumeList(ctx, volume.ListOptions{})
	if err != nil {
		return c, err
	}
	return Counts{Containers: len(cs), Networks: len(ns), Volumes: len(vs.Volumes), AllVolumes: len(all.Volumes)}, nil
}

// RepoRoot finds the repository root from the caller's source file.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// StartDaemon runs .ci/docker.sh (which does nothing when a daemon answers).
func StartDaemon(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(RepoRoot(), ".ci", "docker.sh"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf(".ci/docker.sh: %v: %s", err, out)
	}
	return nil
}
