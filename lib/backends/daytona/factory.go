package daytona

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Backend is this backend's name.
const Backend = "daytona"

// Defaults of the factory options, as marin-shellbox's.
const (
	DefaultTTLMinutes    = 360
	DefaultCreateTimeout = 600 * time.Second
)

// CodeToolboxLanguageLabel is the label the SDK puts on every sandbox.
const CodeToolboxLanguageLabel = "code-toolbox-language"

func init() {
	machine.Register(Backend, func(raw json.RawMessage) (machine.Factory, error) {
		var o Options
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &o); err != nil {
				return nil, &machine.InvalidSpec{Field: "options", Reason: err.Error()}
			}
		}
		return New(o)
	})
}

// NetworkMode is a sandbox's egress policy as Daytona offers it.
type NetworkMode string

const (
	BlockAll         NetworkMode = "block_all"
	Unrestricted     NetworkMode = "unrestricted"
	NetworkAllowList NetworkMode = "network_allow_list"
	DomainAllowList  NetworkMode = "domain_allow_list"
)

// NetworkPolicy overrides the machine spec's network policy with one of
// Daytona's: the allow-list modes need a value (comma-separated CIDRs or
// domains), the others take none.
type NetworkPolicy struct {
	Mode  NetworkMode `json:"mode"`
	Value *string     `json:"value"`
}

// Validate checks the mode and its value.
func (p NetworkPolicy) Validate() error {
	switch p.Mode {
	case NetworkAllowList, DomainAllowList:
		if p.Value == nil || strings.TrimSpace(*p.Value) == "" {
			return &machine.InvalidSpec{Field: "network_policy", Reason: fmt.Sprintf("mode %s needs a value", p.Mode)}
		}
	case BlockAll, Unrestricted:
		if p.Value != nil {
			return &machine.InvalidSpec{Field: "network_policy", Reason: fmt.Sprintf("mode %s takes no value", p.Mode)}
		}
	default:
		return &machine.InvalidSpec{Field: "network_policy", Reason: fmt.Sprintf("unknown mode %q", p.Mode)}
	}
	return nil
}

// apply sets the create request's network fields.
func (p NetworkPolicy) apply(req *CreateSandbox) {
	switch p.Mode {
	case NetworkAllowList:
		req.NetworkAllowList = p.Value
	case DomainAllowList:
		req.DomainAllowList = p.Value
	default:
		block := p.Mode == BlockAll
		req.NetworkBlockAll = &block
	}
}

// Options are the Python factory's keyword arguments.
type Options struct {
	APIKey string `json:"api_key"`
	APIURL string `json:"api_url"`
	Target string `json:"target"`
	// TTLMinutes deletes a sandbox this long after its creation whatever
	// happens to this process (nil: DefaultTTLMinutes; 0: none).
	TTLMinutes *int `json:"ttl_minutes"`
	// CreateTimeout bounds snapshot preparation and sandbox creation, in
	// seconds, unless the spec's startup_timeout does (nil: the default).
	CreateTimeout *float64 `json:"create_timeout"`
	// NetworkPolicy, when set, replaces the spec's network policy.
	NetworkPolicy *NetworkPolicy `json:"network_policy"`
}

// Factory creates Daytona sandboxes as machines.
type Factory struct {
	client        *Client
	ttl           int
	createTimeout time.Duration
	network       *NetworkPolicy
}

// New checks the options and builds a factory; it does not contact the
// service.
func New(o Options) (*Factory, error) {
	c, err := NewClient(ClientConfig{APIKey: o.APIKey, APIURL: o.APIURL, Target: o.Target})
	if err != nil {
		return nil, &machine.InvalidSpec{Field: "options", Reason: err.Error()}
	}
	return NewWithClient(c, o)
}

// NewWithClient is New with a client of the caller's.
func NewWithClient(c *Client, o Options) (*Factory, error) {
	f := &Factory{client: c, ttl: DefaultTTLMinutes, createTimeout: DefaultCreateTimeout, network: o.NetworkPolicy}
	if o.TTLMinutes != nil {
		if *o.TTLMinutes < 0 {
			return nil, &machine.InvalidSpec{Field: "ttl_minutes", Reason: "must not be negative"}
		}
		f.ttl = *o.TTLMinutes
	}
	if o.CreateTimeout != nil {
		d, err := machine.DurationFromSeconds("create_timeout", *o.CreateTimeout)
		if err != nil {
			return nil, err
		}
		if d <= 0 {
			return nil, &machine.InvalidSpec{Field: "create_timeout", Reason: "must be positive"}
		}
		f.createTimeout = d
	}
	if f.network != nil {
		if err := f.network.Validate(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Client is the factory's API client.
func (f *Factory) Client() *Client { return f.client }

func (f *Factory) Backend() string { return Backend }

func (f *Factory) unsupported(field, reason string) error {
	return &machine.UnsupportedSpec{Backend: Backend, Field: field, Reason: reason}
}

// addInstruction finds an ADD instruction (the pinned SDK cannot upload
// its inputs) in either form, in any case.
var addInstruction = regexp.MustCompile(`(?im)^\s*(ADD|COPY)(\s|\[)`)

// CheckEnvironment refuses sources Daytona cannot build.
func (f *Factory) CheckEnvironment(req machine.Requirements, spec machine.Spec) error {
	if err := spec.Validate(); err != nil {
		return err
	}
	_, err := f.image(spec.Source)
	return err
}

// imageSource is what a snapshot is made from.
type imageSource struct {
	key        string // what names the snapshot
	imageName  string
	dockerfile string
}

func (f *Factory) image(src machine.Source) (imageSource, error) {
	switch s := src.(type) {
	case machine.RegistryImage:
		return imageSource{key: "registry:" + s.Reference, imageName: s.Reference}, nil
	case machine.DockerfileSource:
		// The Dockerfile as the docker backend finds it: relative paths
		// under the context unless they exist as given.
		ctxDir, err := filepath.Abs(s.Context)
		if err != nil {
			return imageSource{}, &machine.InvalidSpec{Field: "source", Reason: err.Error()}
		}
		df := s.Dockerfile
		if df == "" {
			df = filepath.Join(ctxDir, "Dockerfile")
		} else if !filepath.IsAbs(df) {
			if _, err := os.Stat(df); err != nil {
				df = filepath.Join(ctxDir, df)
			}
		}
		if df, err = filepath.Abs(df); err != nil {
			return imageSource{}, &machine.InvalidSpec{Field: "source", Reason: err.Error()}
		}
		if filepath.Dir(df) != ctxDir {
			return imageSource{}, f.unsupported("source", "the Dockerfile must be in the root of its build context")
		}
		text, err := os.ReadFile(df)
		if err != nil {
			return imageSource{}, &machine.InvalidSpec{Field: "source", Reason: err.Error()}
		}
		if addInstruction.Match(text) {
			return imageSource{}, f.unsupported("source", "a Dockerfile that reads its build context (ADD or COPY): Daytona builds without the context")
		}
		return imageSource{key: "dockerfile:" + string(text), dockerfile: string(text)}, nil
	}
	return imageSource{}, f.unsupported("source", fmt.Sprintf("%s (Daytona takes RegistryImage or DockerfileSource)", src.Kind()))
}

// resources are a snapshot's, in whole GiB rounded up.
type resources struct {
	CPU    *int `json:"cpu"`
	Memory *int `json:"memory"`
	Disk   *int `json:"disk"`
	GPU    *int `json:"gpu"`
}

func gib(mb *int) *int {
	if mb == nil {
		return nil
	}
	n := int(math.Ceil(float64(*mb) / 1024))
	return &n
}

func specResources(spec machine.Spec) resources {
	r := resources{CPU: spec.CPUs, Memory: gib(spec.MemoryMB), Disk: gib(spec.StorageMB)}
	if spec.GPUs > 0 {
		g := spec.GPUs
		r.GPU = &g
	}
	return r
}

// SnapshotName is the snapshot of an image and its resources: the same
// inputs reuse it, any change makes another.
func SnapshotName(key string, r resources) string {
	b, _ := json.Marshal(r) // struct fields: a fixed order
	h := sha256.Sum256(append(append([]byte(key), 0), b...))
	return "shellbox-" + hex.EncodeToString(h[:])[:40]
}

// Create prepares the snapshot, creates the sandbox and waits for it.
func (f *Factory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	img, err := f.image(spec.Source)
	if err != nil {
		return nil, err
	}
	limit := f.createTimeout
	if spec.StartupTimeout > 0 {
		limit = spec.StartupTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	res := specResources(spec)
	name := SnapshotName(img.key, res)
	if err := f.snapshot(cctx, name, img, res); err != nil {
		return nil, f.createErr(ctx, cctx, limit, err)
	}
	req := CreateSandbox{Snapshot: name, User: "root", Env: spec.Env,
		Labels: map[string]string{CodeToolboxLanguageLabel: "python"}}
	if f.ttl > 0 {
		ttl := f.ttl
		req.TTLMinutes = &ttl
	}
	if f.network != nil {
		f.network.apply(&req)
	} else {
		block := spec.Network != machine.NetworkAllow
		req.NetworkBlockAll = &block
	}
	sb, err := f.client.CreateSandbox(cctx, req)
	if err != nil {
		return nil, f.createErr(ctx, cctx, limit, err)
	}
	m, err := f.start(cctx, sb, spec)
	if err != nil {
		// The sandbox exists: delete it even though ctx may be done.
		dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer dcancel()
		if derr := f.client.DeleteSandbox(dctx, sb.ID); derr != nil && !IsNotFound(derr) {
			err = errors.Join(err, fmt.Errorf("deleting sandbox %s: %w", sb.ID, derr))
		}
		return nil, f.createErr(ctx, cctx, limit, err)
	}
	return m, nil
}

// start waits for the sandbox. The workdir is made, and setsid looked
// for, by the machine's first command (which saves a round trip per
// machine).
func (f *Factory) start(ctx context.Context, sb *Sandbox, spec machine.Spec) (*Machine, error) {
	if sb.State != StateStarted {
		var err error
		if sb, err = f.client.WaitSandbox(ctx, sb.ID, StateStarted); err != nil {
			return nil, err
		}
	}
	tb, err := f.client.Toolbox(ctx, sb)
	if err != nil {
		return nil, err
	}
	return newMachine(f, sb, tb, spec), nil
}

// createErr says which bound a failed creation hit.
func (f *Factory) createErr(ctx, cctx context.Context, limit time.Duration, err error) error {
	var us *machine.UnsupportedSpec
	if errors.As(err, &us) {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if cctx.Err() != nil {
		err = fmt.Errorf("creating the sandbox took longer than %v (startup_timeout or create_timeout): %w", limit, context.DeadlineExceeded)
	}
	return &machine.StartupError{Backend: Backend, Err: err}
}

// snapshot makes sure the named snapshot exists and is active.
func (f *Factory) snapshot(ctx context.Context, name string, img imageSource, r resources) error {
	s, err := f.client.GetSnapshot(ctx, name)
	if IsNotFound(err) {
		req := CreateSnapshot{Name: name, ImageName: img.imageName, CPU: r.CPU, Memory: r.Memory, Disk: r.Disk, GPU: r.GPU}
		if img.dockerfile != "" {
			req.BuildInfo = &BuildInfo{DockerfileContent: img.dockerfile}
		}
		s, err = f.client.CreateSnapshot(ctx, req)
		if IsConflict(err) {
			s, err = f.client.GetSnapshot(ctx, name)
		}
	}
	if err != nil {
		return err
	}
	delay := time.Second
	for {
		switch s.State {
		case SnapshotActive:
			return nil
		case SnapshotError, SnapshotBuildFailed, SnapshotInactive:
			reason := ""
			if s.ErrorReason != nil {
				reason = ": " + *s.ErrorReason
			}
			return fmt.Errorf("snapshot %s is %s%s", name, s.State, reason)
		}
		if err := sleep(ctx, delay); err != nil {
			return fmt.Errorf("snapshot %s still %s: %w", name, s.State, err)
		}
		delay = min(2*delay, 10*time.Second)
		if s, err = f.client.GetSnapshot(ctx, name); err != nil {
			return err
		}
	}
}
