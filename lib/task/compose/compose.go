package compose

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

// Options say how to read a project.
type Options struct {
	// Files are the compose files, later ones merged over earlier ones.
	Files []string
	// WorkingDir resolves relative paths; "": the first file's directory.
	WorkingDir string
	// Env interpolates ${VAR} in the files (Harbor's CONTEXT_DIR, ...).
	Env map[string]string
	// Primary is the service agents drive; "": "main".
	Primary string
	// Workdir is the primary's working directory when its service sets
	// none (Harbor's task workdir).
	Workdir string
	// PrimaryBuild (a build context with its Dockerfile) or PrimaryImage
	// is the primary's image unless the files give it one (Harbor's base
	// file does the same); at most one of them.
	PrimaryBuild string
	PrimaryImage string
	// PrimaryEnv is added to the primary's environment (the task's env).
	PrimaryEnv map[string]string
	// Network is every member's policy: NetworkDeny (""; the group's
	// private network only) or NetworkAllow (also a route out, for a task
	// that allows internet, as Harbor's allow_internet).
	Network machine.NetworkPolicy
}

// base is Harbor's base file: the primary's image, kept alive.
func (o Options) base(primary string) (types.ConfigFile, bool) {
	svc := map[string]any{"command": []any{"sh", "-c", "sleep infinity"}}
	switch {
	case o.PrimaryBuild != "":
		svc["build"] = map[string]any{"context": o.PrimaryBuild}
	case o.PrimaryImage != "":
		svc["image"] = o.PrimaryImage
	default:
		return types.ConfigFile{}, false
	}
	return types.ConfigFile{Filename: "shellbox-base.yaml", Config: map[string]any{"services": map[string]any{primary: svc}}}, true
}

// serviceKeys are the service keys a group honours; everything else is
// refused. ports and network settings would reach beyond the group.
var serviceKeys = map[string]bool{
	"build": true, "image": true, "command": true, "entrypoint": true, "environment": true,
	"working_dir": true, "healthcheck": true, "depends_on": true, "networks": true, "expose": true,
	"pull_policy": true, "platform": true, "labels": true, "init": true, "tty": true, "stdin_open": true,
	"restart": true,
}

// buildKeys are the build keys a group honours.
var buildKeys = map[string]bool{"context": true, "dockerfile": true}

// projectKeys are the top-level keys a group honours.
var projectKeys = map[string]bool{"name": true, "services": true, "networks": true}

// Load reads the project and maps it onto a task spec.
func Load(ctx context.Context, o Options) (task.Spec, error) {
	if len(o.Files) == 0 {
		return task.Spec{}, &machine.InvalidSpec{Field: "compose", Reason: "no compose file"}
	}
	dir := o.WorkingDir
	if dir == "" {
		dir = filepath.Dir(o.Files[0])
	}
	primary := o.Primary
	if primary == "" {
		primary = "main"
	}
	if o.PrimaryBuild != "" && o.PrimaryImage != "" {
		return task.Spec{}, &machine.InvalidSpec{Field: "primary_image", Reason: "give primary_build or primary_image, not both"}
	}
	network := o.Network
	switch network {
	case "":
		network = machine.NetworkDeny
	case machine.NetworkDeny, machine.NetworkAllow:
	default:
		return task.Spec{}, &machine.InvalidSpec{Field: "network", Reason: fmt.Sprintf("a compose group is %q or %q, not %q", machine.NetworkDeny, machine.NetworkAllow, network)}
	}
	details := types.ConfigDetails{WorkingDir: dir, Environment: o.Env}
	if base, ok := o.base(primary); ok {
		details.ConfigFiles = append(details.ConfigFiles, base)
	}
	for _, f := range o.Files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return task.Spec{}, &machine.InvalidSpec{Field: "compose", Reason: err.Error()}
		}
		details.ConfigFiles = append(details.ConfigFiles, types.ConfigFile{Filename: abs})
	}
	name := func(opts *loader.Options) { opts.SetProjectName("shellbox", true) }
	model, err := loader.LoadModelWithContext(ctx, details, name)
	if err != nil {
		return task.Spec{}, &machine.InvalidSpec{Field: "compose", Reason: err.Error()}
	}
	if err := checkKeys(model); err != nil {
		return task.Spec{}, err
	}
	project, err := loader.LoadWithContext(ctx, details, name)
	if err != nil {
		return task.Spec{}, &machine.InvalidSpec{Field: "compose", Reason: err.Error()}
	}
	if _, ok := project.Services[primary]; !ok {
		return task.Spec{}, &machine.InvalidSpec{Field: "compose", Reason: fmt.Sprintf("the project has no %q service (the member agents drive)", primary)}
	}
	spec := task.Spec{Primary: primary}
	names := make([]string, 0, len(project.Services))
	for n := range project.Services {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c, err := member(project.Services[n], n == primary, o.Workdir)
		if err != nil {
			return task.Spec{}, err
		}
		c.Machine.Network = network
		if n == primary {
			for k, v := range o.PrimaryEnv {
				c.Machine.Env[k] = v
			}
		}
		spec.Containers = append(spec.Containers, c)
	}
	return spec, spec.Validate()
}

func unsupported(key, reason string) error {
	return &machine.UnsupportedSpec{Backend: "docker", Field: key, Reason: reason}
}

// checkKeys refuses, naming the key, what a group cannot honour.
func checkKeys(model map[string]any) error {
	for k := range model {
		if !projectKeys[k] {
			return unsupported(k, "task groups support the top-level keys "+strings.Join(sortedKeys(projectKeys), ", "))
		}
	}
	if nets, ok := model["networks"].(map[string]any); ok {
		for n := range nets {
			if n != "default" {
				return unsupported("networks."+n, "members share one private network; other networks are not supported")
			}
		}
	}
	services, _ := model["services"].(map[string]any)
	for name, raw := range services {
		svc, _ := raw.(map[string]any)
		for k, v := range svc {
			key := "services." + name + "." + k
			switch {
			case !serviceKeys[k]:
				reason := "not supported in a task group (supported: " + strings.Join(sortedKeys(serviceKeys), ", ") + ")"
				if k == "ports" {
					reason = "a group publishes nothing to the host; members reach each other by service name"
				}
				return unsupported(key, reason)
			case k == "build":
				if b, ok := v.(map[string]any); ok {
					for bk := range b {
						if !buildKeys[bk] {
							return unsupported(key+"."+bk, "only build.context and build.dockerfile are supported")
						}
					}
				}
			case k == "networks":
				if nets, ok := v.(map[string]any); ok {
					for n, cfg := range nets {
						if n != "default" || cfg != nil {
							return unsupported(key+"."+n, "members share one private network; other networks are not supported")
						}
					}
				}
			case k == "restart":
				if v != "no" {
					return unsupported(key, "a member's main process ending ends the group; restart policies are not supported")
				}
			case k == "platform":
				if v != "linux/amd64" {
					return unsupported(key, "only linux/amd64 images run")
				}
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// member maps one service.
func member(s types.ServiceConfig, primary bool, workdir string) (task.Container, error) {
	spec := machine.Spec{Network: machine.NetworkDeny, Workdir: s.WorkingDir, Env: map[string]string{}}
	switch {
	case s.Build != nil:
		dockerfile := s.Build.Dockerfile
		if dockerfile != "" && !filepath.IsAbs(dockerfile) {
			dockerfile = filepath.Join(s.Build.Context, dockerfile)
		}
		spec.Source = machine.DockerfileSource{Context: s.Build.Context, Dockerfile: dockerfile}
	case s.Image != "":
		spec.Source = machine.RegistryImage{Reference: s.Image}
	default:
		return task.Container{}, &machine.InvalidSpec{Field: "services." + s.Name, Reason: "a service needs an image or a build"}
	}
	for k, v := range s.Environment {
		if v != nil {
			spec.Env[k] = *v
		}
	}
	c := task.Container{Name: s.Name, Machine: spec}
	if primary {
		// The primary stays up for the agent's commands; Harbor's base
		// file gives it "sleep infinity", which is not needed.
		if spec.Workdir == "" {
			c.Machine.Workdir = workdir
		}
	} else {
		c.ServiceCwd = s.WorkingDir
		switch {
		case s.Entrypoint != nil:
			c.Command = append(append([]string{}, s.Entrypoint...), s.Command...)
		case s.Command != nil:
			c.Args = append([]string{}, s.Command...)
		}
	}
	probe, err := readiness(s)
	if err != nil {
		return task.Container{}, err
	}
	c.Readiness = probe
	for _, e := range s.Expose {
		// expose is documentation between services; keep it as endpoints.
		var port int
		if _, err := fmt.Sscanf(strings.TrimSuffix(e, "/tcp"), "%d", &port); err == nil && port > 0 {
			c.Endpoints = append(c.Endpoints, task.Endpoint{Name: e, Port: port, Protocol: "tcp"})
		}
	}
	return c, nil
}

// Compose's healthcheck defaults.
const (
	defaultInterval = 30 * time.Second
	defaultTimeout  = 30 * time.Second
	defaultRetries  = 3
)

// readiness maps a healthcheck onto a probe: the test in the member, the
// same interval, timeout and start period, and retries as the attempt
// limit.
func readiness(s types.ServiceConfig) (*task.Probe, error) {
	h := s.HealthCheck
	if h == nil || h.Disable || len(h.Test) == 0 || h.Test[0] == "NONE" {
		return nil, nil
	}
	var argv []string
	switch h.Test[0] {
	case "CMD":
		argv = h.Test[1:]
	case "CMD-SHELL":
		argv = []string{"/bin/sh", "-c", strings.Join(h.Test[1:], " ")}
	default:
		return nil, unsupported("services."+s.Name+".healthcheck.test", fmt.Sprintf("%q is not CMD, CMD-SHELL or NONE", h.Test[0]))
	}
	p := &task.Probe{Command: argv, Interval: defaultInterval, Timeout: defaultTimeout, Attempts: defaultRetries}
	if h.Interval != nil && *h.Interval > 0 {
		p.Interval = time.Duration(*h.Interval)
	}
	if h.Timeout != nil && *h.Timeout > 0 {
		p.Timeout = time.Duration(*h.Timeout)
	}
	if h.StartPeriod != nil {
		p.StartPeriod = time.Duration(*h.StartPeriod)
	}
	if h.Retries != nil && *h.Retries > 0 {
		p.Attempts = int(*h.Retries)
	}
	return p, nil
}
