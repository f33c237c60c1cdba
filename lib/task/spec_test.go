package task

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

func member(name string) Container {
	return Container{Name: name, Machine: machine.Spec{Source: machine.HostImage{}, Network: machine.NetworkDeny}}
}

func TestSpecValidateNamesTheField(t *testing.T) {
	probe := func(mut func(*Probe)) Container {
		c := member("web")
		p := Probe{Command: []string{"true"}, Timeout: time.Second, Interval: time.Second}
		mut(&p)
		c.Readiness = &p
		return c
	}
	cases := []struct {
		spec  Spec
		field string
	}{
		{Spec{Primary: "a"}, "containers"},
		{Spec{Primary: "b", Containers: []Container{member("a")}}, "primary"},
		{Spec{Primary: "a", Containers: []Container{member("a"), member("a")}}, "containers[1].name"},
		{Spec{Primary: "a", Containers: []Container{member("a"), member("under_score")}}, "containers[1].name"},
		{Spec{Primary: "a", Containers: []Container{member("a"), member("-x")}}, "containers[1].name"},
		{Spec{Primary: "a", Containers: []Container{member("a"), member(strings.Repeat("x", 64))}}, "containers[1].name"},
		{Spec{Primary: "localhost", Containers: []Container{member("localhost")}}, "containers[0].name"},
		{Spec{Primary: "a", Containers: []Container{func() Container {
			c := member("a")
			c.Endpoints = []Endpoint{{Name: "http", Port: 65536, Protocol: "tcp"}}
			return c
		}()}}, "containers[0].endpoints[0].port"},
		{Spec{Primary: "a", Containers: []Container{func() Container {
			c := member("a")
			c.Endpoints = []Endpoint{{Name: "http", Port: 80, Protocol: "sctp"}}
			return c
		}()}}, "containers[0].endpoints[0].protocol"},
		{Spec{Primary: "a", Containers: []Container{func() Container {
			c := member("a")
			c.Endpoints = []Endpoint{{Name: "http", Port: 80, Protocol: "tcp"}, {Name: "http", Port: 81, Protocol: "tcp"}}
			return c
		}()}}, "containers[0].endpoints[1].name"},
		{Spec{Primary: "web", Containers: []Container{probe(func(p *Probe) { p.Timeout = 0 })}}, "containers[0].readiness.timeout"},
		{Spec{Primary: "web", Containers: []Container{probe(func(p *Probe) { p.Interval = -1 })}}, "containers[0].readiness.interval"},
		{Spec{Primary: "web", Containers: []Container{probe(func(p *Probe) { p.StartPeriod = -1 })}}, "containers[0].readiness.start_period"},
		{Spec{Primary: "web", Containers: []Container{probe(func(p *Probe) { p.Command = nil })}}, "containers[0].readiness.command"},
		{Spec{Primary: "a", Containers: []Container{func() Container {
			c := member("a")
			c.Machine.Source = nil
			return c
		}()}}, "containers[0].source"},
	}
	for i, c := range cases {
		err := c.spec.Validate()
		var inv *machine.InvalidSpec
		if !errors.As(err, &inv) || inv.Field != c.field {
			t.Errorf("case %d: Validate = %v, want an InvalidSpec of field %s", i, err, c.field)
		}
	}
	ok := Spec{Primary: "agent", Containers: []Container{member("agent"), probe(func(*Probe) {})}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("a valid spec: %v", err)
	}
}
