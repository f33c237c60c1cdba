package task

import (
	"context"

	"github.com/shellbox/shellbox/lib/machine"
)

// Member is a member's machine whose Close tears the whole group down,
// as closing any member must.
func (t *Task) Member(name string) machine.Machine {
	m, ok := t.members[name]
	if !ok {
		return nil
	}
	return &groupMember{Machine: m, t: t}
}

type groupMember struct {
	machine.Machine
	t *Task
}

var _ machine.ProcessMachine = (*groupMember)(nil)

func (m *groupMember) Close(ctx context.Context) error { return m.t.Close(ctx) }

// OpenProcess passes through to the member's machine when it has
// processes.
func (m *groupMember) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	pm, ok := m.Machine.(machine.ProcessMachine)
	if !ok {
		return nil, &machine.UnsupportedSpec{Field: "open_process", Reason: "the backend has no process sessions"}
	}
	return pm.OpenProcess(ctx, cmd)
}

// GroupAddrs passes through the addresses at which the other members reach
// this one, when the backend gives each member its own (gVisor).
func (m *groupMember) GroupAddrs() []string {
	if ga, ok := m.Machine.(interface{ GroupAddrs() []string }); ok {
		return ga.GroupAddrs()
	}
	return nil
}
