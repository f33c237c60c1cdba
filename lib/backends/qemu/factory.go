package qemu

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docker/docker/client"

	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machinedir"
	"github.com/shellbox/shellbox/lib/oci"
)

// Name is the backend's registered name.
const Name = "qemu"

func init() {
	machine.Register(Name, func(options json.RawMessage) (machine.Factory, error) {
		var o Options
		if len(options) > 0 && string(options) != "null" {
			dec := json.NewDecoder(strings.NewReader(string(options)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&o); err != nil {
				return nil, &machine.InvalidSpec{Field: "options", Reason: err.Error()}
			}
		}
		return New(o)
	})
}

// Acceleration chooses QEMU's accelerator.
type Acceleration string

const (
	// AccelAuto uses KVM when a bounded probe proves it works on this host
	// (and kernel), TCG otherwise.
	AccelAuto Acceleration = "auto"
	AccelKVM  Acceleration = "kvm"
	AccelTCG  Acceleration = "tcg"
)

// Options are the QEMU factory's keyword arguments.
type Options struct {
	Acceleration Acceleration `json:"acceleration"`
	// QEMU is the qemu-system-x86_64 binary; "" looks on PATH.
	QEMU string `json:"qemu"`
	// Kernel is a bzImage or vmlinux with a PVH entry; "" takes
	// $SHELLBOX_QEMU_KERNEL, else the kernel packaged with shellbox, else
	// Debian's cloud kernel in /boot. Modules is its modules directory (""
	// with an explicit Kernel: everything the guest needs is built in).
	Kernel  string `json:"kernel"`
	Modules string `json:"modules"`
	// Guest is the shellbox-guest binary; "" finds the installed helper.
	Guest string `json:"guest"`
	// CacheDir holds boot assets and staged disks; "" means
	// $XDG_CACHE_HOME/shellbox/qemu or ~/.cache/shellbox/qemu.
	CacheDir string `json:"cache_dir"`
	// DiskSizeMB is a staged disk's size when a spec has no storage_mb.
	DiskSizeMB int `json:"disk_size_mb"`
	// DockerHost is the Docker daemon that DockerImage sources come from;
	// "" means $DOCKER_HOST or the local socket.
	DockerHost string `json:"docker_host"`
	// AuthFile holds registry credentials for RegistryImage sources
	// (containers-auth.json or a Docker config.json); "" looks where
	// containers/image does, ~/.docker/config.json included.
	AuthFile string `json:"authfile"`
	// RegistryCertDir holds the registry's CA certificate (ca.crt) and
	// client certificates; "" uses /etc/containers/certs.d/HOST:PORT.
	RegistryCertDir string `json:"registry_cert_dir"`
	// Policy is the containers-policy.json RegistryImage pulls must
	// satisfy; "" reads the host's ($CONTAINERS_POLICY_JSON,
	// ~/.config/containers/policy.json, /etc/containers/policy.json) and,
	// when none exists, accepts every image (see oci.ReadPolicy).
	Policy string `json:"policy"`
	// RegistriesDir is the registries.d that says where signatures are
	// (lookaside, sigstore attachments); "" uses containers/image's.
	RegistriesDir string `json:"registries_dir"`
	// RestoreRAM is how a template's RAM is saved: "file" (default; a RAM
	// file restored machines map copy-on-write) or "stream" (in the
	// migration stream, loaded by each restore).
	RestoreRAM string `json:"restore_ram"`
	// CacheMaxMB bounds the cache's staged disks, saved states and OCI
	// layouts (0: 20 GiB); the least recently used go first, never one a
	// machine uses.
	CacheMaxMB int `json:"cache_max_mb"`
	// Restore, unless false, starts machines by restoring a saved state
	// of a booted template (made on the first create of a configuration)
	// instead of booting the kernel.
	Restore *bool `json:"restore"`
}

func (o Options) restoreEnabled() bool { return o.Restore == nil || *o.Restore }

// Defaults of a machine's resources.
const (
	defaultMemoryMB   = 512
	defaultCPUs       = 1
	defaultDiskSizeMB = 2048
	// defaultStartupTimeout bounds a boot when the spec sets none: a
	// machine must never hang its caller.
	defaultStartupTimeout = 120 * time.Second
)

// Factory creates QEMU microVMs.
type Factory struct {
	opts     Options
	qemu     string
	guest    string
	kernel   kernelSource
	cacheDir string
	userNet  bool
	// cacheMax bounds the cache in bytes; grew says something was added
	// since the last eviction.
	cacheMax int64
	grew     atomic.Bool

	assetsOnce sync.Once
	assets     *bootAssets
	assetsErr  error

	accelOnce sync.Once
	kvmOK     bool
	kvmReason string

	dockerOnce sync.Once
	docker     *client.Client
	dockerErr  error
}

type kernelSource struct {
	image, modules string
	// origin says where the choice came from, for `shellbox doctor`.
	origin string
}

var _ machine.Factory = (*Factory)(nil)

// New checks that QEMU, a kernel and the guest program are present; the
// boot assets are prepared on the first Create.
func New(o Options) (*Factory, error) {
	f := &Factory{opts: o}
	switch o.Acceleration {
	case "":
		f.opts.Acceleration = AccelAuto
	case AccelAuto, AccelKVM, AccelTCG:
	default:
		return nil, &machine.InvalidSpec{Field: "acceleration", Reason: fmt.Sprintf("unknown acceleration %q (auto, kvm or tcg)", o.Acceleration)}
	}
	if o.DiskSizeMB < 0 {
		return nil, &machine.InvalidSpec{Field: "disk_size_mb", Reason: "must not be negative"}
	}
	if f.opts.DiskSizeMB == 0 {
		f.opts.DiskSizeMB = defaultDiskSizeMB
	}
	switch o.RestoreRAM {
	case "":
		f.opts.RestoreRAM = RAMFile
	case RAMFile, RAMStream:
	default:
		return nil, &machine.InvalidSpec{Field: "restore_ram", Reason: fmt.Sprintf("unknown value %q (file or stream)", o.RestoreRAM)}
	}
	if o.CacheMaxMB < 0 {
		return nil, &machine.InvalidSpec{Field: "cache_max_mb", Reason: "must not be negative"}
	}
	if o.Policy != "" {
		if _, err := oci.ReadPolicy(o.Policy); err != nil {
			return nil, &machine.InvalidSpec{Field: "policy", Reason: err.Error()}
		}
	}
	f.cacheMax = int64(cmp.Or(o.CacheMaxMB, defaultCacheMaxMB)) << 20
	var failures []machine.CandidateError
	f.qemu = o.QEMU
	if f.qemu == "" {
		p, err := exec.LookPath("qemu-system-x86_64")
		if err != nil {
			failures = append(failures, machine.CandidateError{Candidate: "qemu-system-x86_64 on PATH", Error: err.Error()})
		}
		f.qemu = p
	} else if _, err := os.Stat(f.qemu); err != nil {
		failures = append(failures, machine.CandidateError{Candidate: f.qemu, Error: err.Error()})
	}
	if o.Kernel != "" {
		// An explicit kernel is read when a machine boots: a missing one
		// is that machine's startup failure.
		f.kernel = kernelSource{image: o.Kernel, modules: o.Modules}
	} else {
		k, err := findKernel()
		if err != nil {
			failures = append(failures, machine.CandidateError{Candidate: "kernel", Error: err.Error()})
		}
		f.kernel = k
	}
	f.guest = o.Guest
	if f.guest == "" {
		p, err := helpers.Path("shellbox-guest")
		if err != nil {
			failures = append(failures, machine.CandidateError{Candidate: "shellbox-guest", Error: err.Error()})
		}
		f.guest = p
	}
	if len(failures) > 0 {
		return nil, &machine.SandboxUnavailable{Backend: Name, Candidates: failures,
			Hint: "QEMU machines need qemu-system-x86 and linux-image-cloud-amd64 (Debian packages) and the shellbox-guest helper"}
	}
	f.cacheDir = o.CacheDir
	if f.cacheDir == "" {
		f.cacheDir = defaultCacheDir()
	}
	f.userNet = hasUserNet(f.qemu)
	// The runtime directories of owners that died without closing their
	// machines (their QEMUs died with them: Pdeathsig).
	machinedir.Sweep(machineDirPrefix, nil, func(dir string) { os.RemoveAll(dir) })
	return f, nil
}

// defaultCacheDir is $XDG_CACHE_HOME/shellbox/qemu or ~/.cache/shellbox/qemu.
func defaultCacheDir() string {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "shellbox", "qemu")
}

// hasUserNet says whether this QEMU has user-mode (slirp) networking.
func hasUserNet(qemu string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, qemu, "-netdev", "help").Output()
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(l) == "user" {
			return true
		}
	}
	return false
}

// Backend names the backend.
func (f *Factory) Backend() string { return Name }

// CheckEnvironment rejects what QEMU machines cannot do.
func (f *Factory) CheckEnvironment(req machine.Requirements, spec machine.Spec) error {
	switch req.CommandSemantics {
	case "", "linux_process":
	default:
		return &machine.UnsupportedSpec{Backend: Name, Field: "command_semantics", Reason: fmt.Sprintf("%q is not provided; QEMU machines run Linux processes", req.CommandSemantics)}
	}
	if err := spec.Validate(); err != nil {
		return err
	}
	return f.checkSpec(spec)
}

func (f *Factory) checkSpec(spec machine.Spec) error {
	if spec.GPUs != 0 {
		return &machine.UnsupportedSpec{Backend: Name, Field: "gpus", Reason: "QEMU machines have no GPUs"}
	}
	if err := f.checkEgress(spec); err != nil {
		return err
	}
	if spec.Network == machine.NetworkAllow && !f.userNet {
		return &machine.UnsupportedSpec{Backend: Name, Field: "network", Reason: "this QEMU has no user-mode networking (slirp)"}
	}
	switch src := spec.Source.(type) {
	case machine.PreparedImage, machine.DockerImage, machine.RegistryImage, machine.DockerfileSource:
	case machine.QemuBundle:
		if spec.StorageMB != nil {
			return &machine.UnsupportedSpec{Backend: Name, Field: "storage_mb", Reason: "a QemuBundle's disk has the size it was staged with"}
		}
	default:
		return &machine.UnsupportedSpec{Backend: Name, Field: "source", Reason: fmt.Sprintf("%s is not supported by QEMU machines (use a RegistryImage, a DockerfileSource, a PreparedImage, a DockerImage or a QemuBundle)", src.Kind())}
	}
	return nil
}
