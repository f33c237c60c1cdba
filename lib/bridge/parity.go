package bridge

import (
	"context"
	"fmt"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

func init() {
	extraRoot["machine_info"] = machineInfo
}

// machineInfo: {"handle"} returns what a machine says about itself beyond
// the Machine interface: {"name"} is a container's name (marin-shellbox's
// DockerMachine.name), "" for machines that have none.
func machineInfo(b *Bridge, _ context.Context, req []byte) (Reply, error) {
	var r wire.MachineInfoRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	o, ok := b.lookup(r.Handle)
	if !ok {
		return Reply{}, fmt.Errorf("handle %d: %w", r.Handle, machine.ErrClosed)
	}
	mo, ok := o.(*machineObject)
	if !ok {
		return Reply{}, &machine.InvalidSpec{Field: "handle", Reason: fmt.Sprintf("handle %d is not a machine", r.Handle)}
	}
	var info wire.MachineInfoReply
	if n, ok := mo.machine.(interface{ ContainerName() string }); ok {
		info.Name = n.ContainerName()
	}
	return Reply{Header: info}, nil
}
