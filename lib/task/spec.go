package task

import (
	"fmt"
	"regexp"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Spec describes one task group.
type Spec struct {
	Containers []Container
	// Primary names the member that stays alive for machine commands.
	Primary string
}

// Container is one member of a group.
type Container struct {
	// Name is the member's host name inside the group.
	Name      string
	Machine   machine.Spec
	Endpoints []Endpoint
	Readiness *Probe
	// Command, when set, replaces the image's entrypoint and command as
	// the member's service.
	Command []string
	// Args, when set, replaces only the image's command: the service is
	// the image's entrypoint with these arguments (compose's command).
	Args []string
	// ServiceCwd is where the service starts; "": the image's working
	// directory, else the machine's.
	ServiceCwd string
}

// Endpoint is a port a member serves.
type Endpoint struct {
	Name     string
	Port     int
	Protocol string // "tcp" or "udp"
}

// Probe says when a member is ready: Command exits 0 inside the member.
type Probe struct {
	Command     []string
	Timeout     time.Duration // per attempt
	Interval    time.Duration // between attempts
	StartPeriod time.Duration // before the first attempt
	Attempts    int           // 0: until WaitReady's deadline
}

// hostname is one RFC 1123 label, as Docker and compose accept for a
// service name, so that a member name is usable as a host name.
var hostname = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)

// reservedNames resolve to something else inside every member.
var reservedNames = map[string]bool{"localhost": true}

// Validate checks what no backend can accept, with an InvalidSpec naming
// the field.
func (s Spec) Validate() error {
	if len(s.Containers) == 0 {
		return &machine.InvalidSpec{Field: "containers", Reason: "a task needs at least one container"}
	}
	seen := map[string]bool{}
	for i, c := range s.Containers {
		if err := c.validate(); err != nil {
			if inv, ok := err.(*machine.InvalidSpec); ok {
				inv.Field = fmt.Sprintf("containers[%d].%s", i, inv.Field)
			}
			return err
		}
		if seen[c.Name] {
			return &machine.InvalidSpec{Field: fmt.Sprintf("containers[%d].name", i), Reason: fmt.Sprintf("%q is used by two containers", c.Name)}
		}
		seen[c.Name] = true
	}
	if !seen[s.Primary] {
		return &machine.InvalidSpec{Field: "primary", Reason: fmt.Sprintf("%q is not the name of a container", s.Primary)}
	}
	return nil
}

func (c Container) validate() error {
	if !hostname.MatchString(c.Name) || reservedNames[c.Name] {
		return &machine.InvalidSpec{Field: "name", Reason: fmt.Sprintf("%q is not a valid host name (letters, digits and inner hyphens, at most 63)", c.Name)}
	}
	if err := c.Machine.Validate(); err != nil {
		return err
	}
	names := map[string]bool{}
	for j, e := range c.Endpoints {
		field := fmt.Sprintf("endpoints[%d]", j)
		if e.Name == "" || names[e.Name] {
			return &machine.InvalidSpec{Field: field + ".name", Reason: fmt.Sprintf("endpoint names must be unique and not empty, got %q", e.Name)}
		}
		names[e.Name] = true
		if e.Port < 1 || e.Port > 65535 {
			return &machine.InvalidSpec{Field: field + ".port", Reason: fmt.Sprintf("%d is not in 1..65535", e.Port)}
		}
		if e.Protocol != "tcp" && e.Protocol != "udp" {
			return &machine.InvalidSpec{Field: field + ".protocol", Reason: fmt.Sprintf("%q is not tcp or udp", e.Protocol)}
		}
	}
	if c.Command != nil {
		if err := (machine.Command{Argv: c.Command}).Validate(); err != nil {
			return &machine.InvalidSpec{Field: "command", Reason: err.Error()}
		}
		if c.Args != nil {
			return &machine.InvalidSpec{Field: "args", Reason: "give command (the whole service) or args (the image's entrypoint's arguments), not both"}
		}
	}
	if c.ServiceCwd != "" {
		if err := machine.ValidateGuestPath("service_cwd", c.ServiceCwd); err != nil {
			return err
		}
	}
	if p := c.Readiness; p != nil {
		if err := (machine.Command{Argv: p.Command}).Validate(); err != nil {
			return &machine.InvalidSpec{Field: "readiness.command", Reason: err.Error()}
		}
		switch {
		case p.Timeout <= 0:
			return &machine.InvalidSpec{Field: "readiness.timeout", Reason: "must be positive"}
		case p.Interval <= 0:
			return &machine.InvalidSpec{Field: "readiness.interval", Reason: "must be positive"}
		case p.StartPeriod < 0:
			return &machine.InvalidSpec{Field: "readiness.start_period", Reason: "must not be negative"}
		case p.Attempts < 0:
			return &machine.InvalidSpec{Field: "readiness.attempts", Reason: "must be positive"}
		}
	}
	return nil
}
