package local

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/backends/local/cgroup"
	"github.com/shellbox/shellbox/lib/machine"
)

// Name is the backend's registered name.
const Name = "local"

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

// Options are the local factory's keyword arguments.
type Options struct {
	// ReadOnly host directories visible read-only in every machine.
	ReadOnly []string `json:"read_only"`
	// BinDirs are host directories put first on every machine's PATH.
	BinDirs []string `json:"bin_dirs"`
	// Bwrap is the bubblewrap binary to use; "" looks for bwrap on PATH.
	Bwrap string `json:"bwrap"`
	// CacheDir holds unpacked image root filesystems; "" means
	// $XDG_CACHE_HOME/shellbox/rootfs or ~/.cache/shellbox/rootfs.
	CacheDir string `json:"cache_dir"`
	// HashSeed, when set, becomes PYTHONHASHSEED in every machine.
	HashSeed *string `json:"hash_seed"`
	// PidsLimit bounds each machine's tasks (threads included) through a
	// cgroup's pids.max when the host has one; 0 means 1024.
	PidsLimit int `json:"pids_limit"`
	// SystemDirectories is "read_only" ("" too) or "copy_on_write": /usr,
	// /bin, /sbin, /lib* and /etc writable per machine (see the launcher's
	// overlay_linux.go, and userns_overlay_linux.go without root, which
	// needs fuse-overlayfs).
	SystemDirectories string `json:"system_directories"`
	// TTL, in seconds, closes a machine that lives that long (nil: never).
	TTL *float64 `json:"ttl"`
	// CgroupParent is a cgroup directory (v2, or a v1 hierarchy) under
	// which each machine gets a child that enforces Spec.CPUs and MemoryMB.
	CgroupParent string `json:"cgroup_parent"`
}

// Factory creates local machines.
type Factory struct {
	opts     Options
	bwrap    string
	root     bool // the host process is root: no user namespace needed
	uid, gid int
	cacheDir string
	cgroups  *cgroup.Support
	limits   *cgroup.Limits // cgroup_parent: CPU and memory limits; nil without
	etc      etcTemplate    // a HostImage machine's /etc
	etcFiles *os.File       // etc's files, for the helpers to write
	// fuseOverlayfs serves copy_on_write's overlays when the host process
	// is not root.
	fuseOverlayfs string

	unpackMu sync.Mutex
	unpacks  map[string]*sync.Mutex
}

var _ machine.Factory = (*Factory)(nil)

// probeTimeout bounds the check that bubblewrap works.
const probeTimeout = 30 * time.Second

// New checks, once, that a bubblewrap sandbox can be built on this host and
// returns a factory using the first candidate that works.
func New(o Options) (*Factory, error) {
	f := &Factory{opts: o, uid: os.Geteuid(), gid: os.Getegid(), unpacks: map[string]*sync.Mutex{}}
	f.root = f.uid == 0
	if o.PidsLimit < 0 {
		return nil, &machine.InvalidSpec{Field: "pids_limit", Reason: "must not be negative"}
	}
	if o.PidsLimit == 0 {
		f.opts.PidsLimit = pidsLimit
	}
	switch o.SystemDirectories {
	case "", "read_only", "copy_on_write":
	default:
		return nil, &machine.InvalidSpec{Field: "system_directories", Reason: fmt.Sprintf("%q is neither read_only nor copy_on_write", o.SystemDirectories)}
	}
	if o.SystemDirectories == "copy_on_write" && f.uid != 0 {
		// Without root the launcher serves the overlays with fuse-overlayfs
		// in a user namespace (launcher/userns_overlay_linux.go).
		fuse, err := exec.LookPath("fuse-overlayfs")
		if err == nil {
			var dev *os.File
			if dev, err = os.OpenFile("/dev/fuse", os.O_RDWR, 0); err == nil {
				dev.Close()
			}
		}
		if err != nil {
			return nil, &machine.UnsupportedSpec{Backend: Name, Field: "system_directories",
				Reason: fmt.Sprintf("copy_on_write without root needs fuse-overlayfs and /dev/fuse: %v", err)}
		}
		f.fuseOverlayfs = fuse
	}
	if o.CgroupParent != "" {
		l, err := cgroup.OpenLimits(o.CgroupParent)
		if err != nil {
			return nil, &machine.UnsupportedSpec{Backend: Name, Field: "cgroup_parent", Reason: err.Error()}
		}
		f.limits = l
	}
	if o.TTL != nil && !(*o.TTL > 0 && *o.TTL < 1e9) {
		return nil, &machine.InvalidSpec{Field: "ttl", Reason: "must be a positive number of seconds"}
	}
	var err error
	if f.opts.ReadOnly, err = absDirs("read_only", o.ReadOnly); err != nil {
		return nil, err
	}
	if f.opts.BinDirs, err = absDirs("bin_dirs", o.BinDirs); err != nil {
		return nil, err
	}
	f.cacheDir = o.CacheDir
	if f.cacheDir == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, herr := os.UserHomeDir()
			if herr != nil {
				home = os.TempDir()
			}
			base = filepath.Join(home, ".cache")
		}
		f.cacheDir = filepath.Join(base, "shellbox", "rootfs")
	}
	var candidates []string
	if o.Bwrap != "" {
		candidates = []string{o.Bwrap}
	} else {
		p, lerr := exec.LookPath("bwrap")
		if lerr != nil {
			return nil, f.unavailable([]machine.CandidateError{{Candidate: "bwrap on PATH", Error: lerr.Error()}})
		}
		candidates = []string{p}
	}
	var failures []machine.CandidateError
	for _, c := range candidates {
		if perr := f.probe(c); perr != nil {
			failures = append(failures, machine.CandidateError{Candidate: c, Error: perr.Error()})
			continue
		}
		f.bwrap = c
		f.cgroups = cgroup.Detect()
		f.sweepMachineDirs()
		f.etc = readEtc("/etc")
		if f.etcFiles, err = f.etc.memfd(); err != nil {
			return nil, &machine.StartupError{Backend: Name, Err: fmt.Errorf("preparing /etc: %w", err)}
		}
		return f, nil
	}
	return nil, f.unavailable(failures)
}

func (f *Factory) unavailable(c []machine.CandidateError) error {
	hint := "bubblewrap must be able to create namespaces: as root it needs CAP_SYS_ADMIN and CAP_NET_ADMIN, " +
		"no AppArmor confinement and a seccomp policy that allows pivot_root; as a normal user it needs " +
		"unprivileged user namespaces (kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0)"
	return &machine.SandboxUnavailable{Backend: Name, Hint: hint, Candidates: c}
}

func absDirs(field string, dirs []string) ([]string, error) {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		a, err := filepath.Abs(d)
		if err != nil {
			return nil, &machine.InvalidSpec{Field: field, Reason: err.Error()}
		}
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			return nil, &machine.InvalidSpec{Field: field, Reason: fmt.Sprintf("%s is not a directory", a)}
		}
		out = append(out, a)
	}
	return out, nil
}

// probe runs a tiny sandbox with bwrap.
func (f *Factory) probe(bwrap string) error {
	dir, err := os.MkdirTemp("", "shellbox-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	args := f.namespaceArgs(machine.NetworkDeny, false)
	args = append(args, "--bind", dir, "/")
	args = append(args, hostSystemArgs()...)
	args = append(args, "--dev", "/dev")
	args = append(args, procAndSys()...)
	args = append(args, "--", "/bin/sh", "-c", "exit 0")
	cmd := exec.CommandContext(ctx, bwrap, args...)
	cmd.Env = []string{"PATH=" + defaultPath}
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if ctx.Err() != nil {
			return fmt.Errorf("probe timed out after %v", probeTimeout)
		}
		if msg != "" {
			return fmt.Errorf("%v: %s", err, msg)
		}
		return err
	}
	return nil
}

// Backend names the backend.
func (f *Factory) Backend() string { return Name }

// Bwrap is the bubblewrap binary the factory chose.
func (f *Factory) Bwrap() string { return f.bwrap }

// CheckEnvironment rejects what the local backend cannot do.
func (f *Factory) CheckEnvironment(req machine.Requirements, spec machine.Spec) error {
	switch req.CommandSemantics {
	case "", "linux_process":
	default:
		return &machine.UnsupportedSpec{Backend: Name, Field: "command_semantics", Reason: fmt.Sprintf("%q is not provided; local machines run Linux processes", req.CommandSemantics)}
	}
	for _, c := range req.Capabilities {
		if c == "process_limit" && !f.cgroups.Available() {
			return &machine.UnsupportedSpec{Backend: Name, Field: "capabilities", Reason: "no pids cgroup can be created on this host (" +
				f.cgroups.Reason + "); a machine's processes are bounded only by RLIMIT_NPROC, and not at all for root"}
		}
	}
	if req.DockerImage != "" {
		return &machine.UnsupportedSpec{Backend: Name, Field: "docker_image", Reason: "local machines do not run Docker images; use a PreparedImage"}
	}
	if err := spec.Validate(); err != nil {
		return err
	}
	return f.checkSpec(spec)
}

func (f *Factory) checkSpec(spec machine.Spec) error {
	switch {
	case spec.CPUs != nil && f.limits == nil:
		return &machine.UnsupportedSpec{Backend: Name, Field: "cpus", Reason: "local machines share the host's CPUs unless the factory has a cgroup_parent"}
	case spec.MemoryMB != nil && f.limits == nil:
		return &machine.UnsupportedSpec{Backend: Name, Field: "memory_mb", Reason: "local machines cannot limit memory unless the factory has a cgroup_parent"}
	case spec.MemoryMB != nil && *spec.MemoryMB < 8:
		return &machine.UnsupportedSpec{Backend: Name, Field: "memory_mb", Reason: "a local machine needs at least 8 MB"}
	case spec.StorageMB != nil:
		return &machine.UnsupportedSpec{Backend: Name, Field: "storage_mb", Reason: "local machines cannot limit storage"}
	case spec.GPUs != 0:
		return &machine.UnsupportedSpec{Backend: Name, Field: "gpus", Reason: "local machines cannot provide GPUs"}
	}
	switch src := spec.Source.(type) {
	case machine.HostImage:
		return f.checkHostWorkdir(src, spec.Workdir)
	case *machine.HostImage:
		return f.checkHostWorkdir(*src, spec.Workdir)
	case machine.PreparedImage, *machine.PreparedImage:
	default:
		return &machine.UnsupportedSpec{Backend: Name, Field: "source", Reason: fmt.Sprintf("%s is not supported; use HostImage or PreparedImage", spec.Source.Kind())}
	}
	return nil
}

// Create starts a machine: one sandbox with the helper running inside.
func (f *Factory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	m, err := f.create(ctx, spec)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (f *Factory) create(ctx context.Context, spec machine.Spec) (*Machine, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if err := f.checkSpec(spec); err != nil {
		return nil, err
	}
	var layout *layoutPlan
	var err error
	switch src := spec.Source.(type) {
	case machine.HostImage:
		layout, err = f.hostLayout(src, spec)
	case *machine.HostImage:
		layout, err = f.hostLayout(*src, spec)
	case machine.PreparedImage:
		layout, err = f.imageLayout(ctx, src, spec)
	case *machine.PreparedImage:
		layout, err = f.imageLayout(ctx, *src, spec)
	}
	if err != nil {
		return nil, err
	}
	return f.start(ctx, spec, layout)
}

// checkHostWorkdir refuses a workdir inside a read-only directory.
func (f *Factory) checkHostWorkdir(src machine.HostImage, workdir string) error {
	if workdir == "" || path.Clean(workdir) == "/" {
		return nil
	}
	ro := append(append([]string{}, f.opts.ReadOnly...), f.opts.BinDirs...)
	if f.opts.SystemDirectories != "copy_on_write" {
		ro = append(ro, hostSystemDirs...)
	}
	for _, d := range append(append([]string{}, src.ReadOnly...), src.BinDirs...) {
		if a, err := filepath.Abs(d); err == nil {
			ro = append(ro, a)
		}
	}
	ro = append(ro, "/proc", "/dev", "/.shellbox")
	if underAny(path.Clean(workdir), ro) {
		return &machine.UnsupportedSpec{Backend: Name, Field: "workdir", Reason: fmt.Sprintf("%s is inside a read-only directory", workdir)}
	}
	return nil
}
