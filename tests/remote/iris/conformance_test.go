package iris_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/shellbox/shellbox/lib/backends/iris"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster/clusterconnect"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/job"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machine/machinetest"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// The client against the loopback controller: every command and transfer
// is an ExecInContainer.
func TestConformance(t *testing.T) {
	rpc := clusterconnect.NewControllerServiceClient(httpClient(), serverURL, connect.WithInterceptors(bearer()))
	machinetest.Run(t, factory, machinetest.Capabilities{
		Spec:         machine.Spec{Source: machine.RegistryImage{Reference: dockertest.BusyboxImage}},
		NetworkAllow: true,
		NoProcesses:  true,
		BigOutputMiB: 16,
		Cycles:       6,
		Timeout:      2 * time.Second,
		Resources: func(ctx context.Context) (map[string]int, error) {
			return map[string]int{"task machines": server.Machines()}, nil
		},
		Released: func(ctx context.Context, m machine.Machine) error {
			id := m.(*iris.Machine).TaskID()
			st, err := rpc.GetTaskStatus(ctx, connect.NewRequest(&cluster.Controller_GetTaskStatusRequest{TaskId: proto.String(id)}))
			if err != nil {
				return err
			}
			if s := st.Msg.GetTask().GetState(); s != job.TaskState_TASK_STATE_KILLED {
				return fmt.Errorf("task %s is %s, want KILLED", id, s)
			}
			return nil
		},
	})
}
