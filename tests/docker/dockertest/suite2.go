package dockertest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machine/machinetest"
)

func writeFile(t testing.TB, p string, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// BoundedDownloads: MaxBytes semantics.
func BoundedDownloads(t *testing.T, f *docker.Factory) {
	ctx := context.Background()
	m := NewMachine(t, f, nil)
	host := t.TempDir()
	Sh(t, m, "head -c 1000 /dev/zero | tr '\\0' a > /workspace/k; mkdir -p /workspace/d/e; head -c 6 /dev/zero > /workspace/d/a; head -c 5 /dev/zero > /workspace/d/e/b")
	target := filepath.Join(host, "k")
	writeFile(t, target, "previous", 0o644)
	var le *machine.DownloadLimitExceeded
	if err := m.Download(ctx, "/workspace/k", target, machine.DownloadOptions{MaxBytes: 999}); !errors.As(err, &le) {
		t.Fatalf("over the limit: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "previous" {
		t.Fatalf("target changed: %q", data)
	}
	if err := m.Download(ctx, "/workspace/k", target, machine.DownloadOptions{MaxBytes: 1000}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); len(data) != 1000 {
		t.Fatalf("got %d bytes", len(data))
	}
	// A directory's bound is the total of its files; a negative MaxBytes
	// (Python's max_bytes=0) allows none.
	if err := m.Download(ctx, "/workspace/d", filepath.Join(host, "d"), machine.DownloadOptions{MaxBytes: 10}); !errors.As(err, &le) {
		t.Fatalf("directory over its limit: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(host, "d")); err == nil {
		t.Fatal("a refused directory download left files")
	}
	if err := m.Download(ctx, "/workspace/d", filepath.Join(host, "d"), machine.DownloadOptions{MaxBytes: 11}); err != nil {
		t.Fatalf("directory within its limit: %v", err)
	}
	if err := m.Download(ctx, "/workspace/k", filepath.Join(host, "zero"), machine.DownloadOptions{MaxBytes: -1}); !errors.As(err, &le) {
		t.Fatalf("a zero limit: %v", err)
	}
	entries, _ := os.ReadDir(host)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".shellbox-download-") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
	// A large bounded download keeps memory flat.
	Sh(t, m, "head -c 268435456 /dev/zero > /workspace/big")
	big := filepath.Join(host, "big")
	var err error
	start := time.Now()
	grow := machinetest.PeakRSS(func() { err = m.Download(ctx, "/workspace/big", big, machine.DownloadOptions{MaxBytes: 1 << 30}) })
	t.Logf("256 MiB bounded download in %v, RSS grew %.1f MiB", time.Since(start), float64(grow)/(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(big); st == nil || st.Size() != 1<<28 {
		t.Fatalf("size %v", st)
	}
	if grow > 16<<20 {
		t.Fatalf("RSS grew %d MiB", grow>>20)
	}
}

// Resources: flags are applied (read back from the daemon) or refused
// before anything is created.
func Resources(t *testing.T, f *docker.Factory) {
	ctx := context.Background()
	cpus, mem := 1, 64
	m := NewMachine(t, f, func(s *machine.Spec) { s.CPUs = &cpus; s.MemoryMB = &mem })
	insp, err := f.Client().ContainerInspect(ctx, m.ContainerID())
	if err != nil {
		t.Fatal(err)
	}
	if insp.HostConfig.NanoCPUs != 1e9 || insp.HostConfig.Memory != 64<<20 || insp.HostConfig.NetworkMode != "none" {
		t.Fatalf("NanoCpus %d Memory %d NetworkMode %s", insp.HostConfig.NanoCPUs, insp.HostConfig.Memory, insp.HostConfig.NetworkMode)
	}
	if insp.HostConfig.Init == nil || !*insp.HostConfig.Init {
		t.Fatal("no init")
	}
	if rt := f.Runtime(); rt != "" && insp.HostConfig.Runtime != rt {
		t.Fatalf("runtime %q, want %q", insp.HostConfig.Runtime, rt)
	}
	if insp.Config.Labels[docker.LabelMachine] == "" || insp.Config.Labels[docker.LabelBackend] != f.Backend() {
		t.Fatalf("labels %v", insp.Config.Labels)
	}
	before, _ := Count(ctx, f.Client(), docker.LabelBackend, f.Backend())
	storage := 512
	spec := machine.Spec{Source: Busybox, Network: machine.NetworkDeny, StorageMB: &storage}
	info, _ := f.Client().Info(ctx)
	err = f.CheckEnvironment(machine.Requirements{}, spec)
	var us *machine.UnsupportedSpec
	if errors.As(err, &us) {
		if us.Field != "storage_mb" || !strings.Contains(us.Reason, info.Driver) {
			t.Fatalf("storage refusal: %v", err)
		}
		if _, err := f.Create(ctx, spec); !errors.As(err, &us) || us.Field != "storage_mb" {
			t.Fatalf("create with storage: %v", err)
		}
		t.Logf("storage_mb refused: %v", us)
	} else if err != nil {
		t.Fatal(err)
	} else {
		m2 := NewMachine(t, f, func(s *machine.Spec) { s.StorageMB = &storage })
		insp, _ := f.Client().ContainerInspect(ctx, m2.ContainerID())
		if insp.HostConfig.StorageOpt["size"] != "512M" {
			t.Fatalf("StorageOpt %v", insp.HostConfig.StorageOpt)
		}
	}
	if err := f.CheckEnvironment(machine.Requirements{}, machine.Spec{Source: Busybox, Network: machine.NetworkDeny, GPUs: 1}); !errors.As(err, &us) || us.Field != "gpus" {
		t.Logf("gpus accepted by CheckEnvironment: %v", err)
	}
	huge := 4096
	if err := f.CheckEnvironment(machine.Requirements{}, machine.Spec{Source: Busybox, Network: machine.NetworkDeny, CPUs: &huge}); !errors.As(err, &us) || us.Field != "cpus" {
		t.Fatalf("4096 cpus: %v", err)
	}
	if err := f.CheckEnvironment(machine.Requirements{}, machine.Spec{Source: machine.HostImage{}, Network: machine.NetworkDeny}); !errors.As(err, &us) || us.Field != "source" {
		t.Fatalf("HostImage: %v", err)
	}
	if err := f.CheckEnvironment(machine.Requirements{CommandSemantics: "shell_simulator"}, machine.Spec{Source: Busybox, Network: machine.NetworkDeny}); !errors.As(err, &us) {
		t.Fatalf("shell_simulator: %v", err)
	}
	if _, err := f.Create(ctx, machine.Spec{Source: machine.HostImage{}, Network: machine.NetworkDeny}); !errors.As(err, &us) || us.Field != "source" {
		t.Fatalf("create HostImage: %v", err)
	}
	after, _ := Count(ctx, f.Client(), docker.LabelBackend, f.Backend())
	if after.Containers != before.Containers {
		t.Fatalf("refused specs created containers: %+v -> %+v", before, after)
	}
	// The memory limit is enforced.
	r := Sh(t, m, "cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max 2>/dev/null || echo unknown")
	t.Logf("memory limit seen inside: %s", bytes.TrimSpace(r.Stdout))
}

// Network: deny has only loopback; allow has the default bridge.
func Network(t *testing.T, f *docker.Factory) {
	ctx := context.Background()
	ifaces := func(m machine.Machine) string {
		out := Sh(t, m, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '").Stdout
		return strings.TrimSpace(string(out))
	}
	deny := NewMachine(t, f, nil)
	if got := ifaces(deny); got != "lo" {
		t.Fatalf("deny interfaces: %q", got)
	}
	allow := NewMachine(t, f, func(s *machine.Spec) { s.Network = machine.NetworkAllow })
	if got := ifaces(allow); !strings.Contains(got, "eth0") {
		t.Fatalf("allow interfaces: %q", got)
	}
	insp, err := f.Client().ContainerInspect(ctx, allow.ContainerID())
	if err != nil {
		t.Fatal(err)
	}
	if insp.HostConfig.NetworkMode != "bridge" || insp.NetworkSettings.Networks["bridge"] == nil {
		t.Fatalf("allow: NetworkMode %s networks %v", insp.HostConfig.NetworkMode, insp.NetworkSettings.Networks)
	}
}

// Sources: DockerImage, RegistryImage already cached (no pull), a missing
// DockerImage, a Dockerfile built with COPY and RUN whose ENTRYPOINT never
// runs.
func Sources(t *testing.T, f *docker.Factory) {
	ctx := context.Background()
	var se *machine.StartupError
	_, err := f.Create(ctx, machine.Spec{Source: machine.DockerImage{Reference: "shellbox-test/absent:nope"}, Network: machine.NetworkDeny})
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "shellbox-test/absent:nope") {
		t.Fatalf("missing DockerImage: %v", err)
	}
	if _, err := f.Create(ctx, machine.Spec{Source: machine.RegistryImage{Reference: "localhost:1/shellbox/absent:latest"}, Network: machine.NetworkDeny}); !errors.As(err, &se) {
		t.Fatalf("unreachable registry: %v", err)
	}
	m := NewMachine(t, f, func(s *machine.Spec) { s.Source = machine.RegistryImage{Reference: BusyboxImage} })
	wantOut(t, Sh(t, m, "echo cached"), 0, "cached\n", "")

	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hello.txt"), "hello from the context\n", 0o644)
	writeFile(t, filepath.Join(dir, "Dockerfile"), "FROM "+BusyboxImage+"\n"+
		"COPY hello.txt /opt/hello.txt\n"+
		"RUN echo built > /opt/built && chmod 600 /opt/built\n"+
		"ENV FROM_IMAGE=yes\n"+
		"ENTRYPOINT [\"/bin/sh\", \"-c\", \"touch /entrypoint-ran; exit 1\"]\n"+
		"CMD [\"touch\", \"/cmd-ran\"]\n", 0o644)
	start := time.Now()
	m2 := NewMachine(t, f, func(s *machine.Spec) {
		s.Source = machine.DockerfileSource{Context: dir, Dockerfile: filepath.Join(dir, "Dockerfile")}
	})
	t.Logf("Dockerfile machine in %v", time.Since(start))
	wantOut(t, Sh(t, m2, "cat /opt/hello.txt /opt/built; echo $FROM_IMAGE; ls /entrypoint-ran /cmd-ran 2>/dev/null; true"), 0, "hello from the context\nbuilt\nyes\n", "")
	// A second build hits the layer cache.
	start = time.Now()
	NewMachine(t, f, func(s *machine.Spec) {
		s.Source = machine.DockerfileSource{Context: dir, Dockerfile: filepath.Join(dir, "Dockerfile")}
	})
	t.Logf("cached Dockerfile machine in %v", time.Since(start))
	// A Dockerfile outside its context.
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "Containerfile"), "FROM "+BusyboxImage+"\nCOPY hello.txt /h\n", 0o644)
	m3 := NewMachine(t, f, func(s *machine.Spec) {
		s.Source = machine.DockerfileSource{Context: dir, Dockerfile: filepath.Join(other, "Containerfile")}
	})
	wantOut(t, Sh(t, m3, "cat /h"), 0, "hello from the context\n", "")
	// An image without /bin/sh cannot host a machine: the first command
	// says why.
	writeFile(t, filepath.Join(other, "Scratch"), "FROM scratch\nCOPY hello.txt /hello.txt\n", 0o644)
	if m4, err := f.Create(ctx, machine.Spec{Source: machine.DockerfileSource{Context: dir, Dockerfile: filepath.Join(other, "Scratch")}, Network: machine.NetworkDeny}); err == nil {
		_, err := m4.Run(ctx, machine.Command{Argv: []string{"true"}})
		m4.Close(ctx)
		if !errors.Is(err, machine.ErrTerminated) && !errors.As(err, &se) {
			t.Fatalf("image without /bin/sh: %v", err)
		}
		t.Logf("image without /bin/sh: %v", err)
	} else if !errors.As(err, &se) {
		t.Fatalf("image without /bin/sh: %v", err)
	}
	// A failing build is a StartupError carrying the build output.
	writeFile(t, filepath.Join(other, "Bad"), "FROM "+BusyboxImage+"\nRUN echo failing-step && exit 3\n", 0o644)
	_, err = f.Create(ctx, machine.Spec{Source: machine.DockerfileSource{Context: dir, Dockerfile: filepath.Join(other, "Bad")}, Network: machine.NetworkDeny})
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "failing-step") {
		t.Fatalf("failing build: %v", err)
	}
}

// CreateCancel abandons creations at various points: nothing is left
// behind and the error is a StartupError wrapping the context's.
func CreateCancel(t *testing.T, f *docker.Factory) {
	ctx := context.Background()
	before, err := Count(ctx, f.Client(), docker.LabelBackend, f.Backend())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 60 * time.Millisecond, 120 * time.Millisecond, 250 * time.Millisecond} {
		cctx, cancel := context.WithTimeout(ctx, d)
		m, err := f.Create(cctx, machine.Spec{Source: Busybox, Network: machine.NetworkDeny})
		cancel()
		if err == nil {
			m.Close(ctx)
			continue
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("after %v: %v", d, err)
		}
	}
	// The startup timeout of the spec bounds creation the same way.
	_, err = f.Create(ctx, machine.Spec{Source: Busybox, Network: machine.NetworkDeny, StartupTimeout: time.Millisecond})
	var se *machine.StartupError
	if !errors.As(err, &se) {
		t.Fatalf("startup timeout: %v", err)
	}
	// Removals may still be finishing on a loaded daemon.
	var after Counts
	for i := 0; i < 50; i++ {
		if after, err = Count(ctx, f.Client(), docker.LabelBackend, f.Backend()); err != nil {
			t.Fatal(err)
		}
		if after.Containers <= before.Containers {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if after.Containers > before.Containers {
		t.Fatalf("abandoned creations left containers: %+v -> %+v", before, after)
	}
}
