package bridge

import (
	"context"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

// runStarter is a machine that can start a command without waiting for
// it (the local backend): the start is quick and never blocks for long.
type runStarter interface {
	StartRun(ctx context.Context, cmd machine.Command) (wait func() (machine.Result, error), err error)
}

// begin runs, on the calling thread, the part of a call that starts work
// elsewhere, when the call has one: a local machine's run sends its
// command to the sandbox before Start hands the wait to a goroutine, so
// the command does not wait for a thread to wake up and run that
// goroutine first (about as long as 30 µs of a 1 ms command on a virtual
// machine). finish, called once, does the rest of the call; ok is false
// when the call has no such part.
func (b *Bridge) begin(ctx context.Context, handle uint64, method string, req, payload []byte) (finish func() (Reply, error), ok bool) {
	if handle == Root || method != "run" {
		return nil, false
	}
	o, _ := b.lookup(handle)
	mo, _ := o.(*machineObject)
	if mo == nil {
		return nil, false
	}
	starter, _ := mo.machine.(runStarter)
	if starter == nil {
		return nil, false
	}
	failed := func(err error) func() (Reply, error) {
		return func() (Reply, error) { return Reply{}, mo.withStopReason(err) }
	}
	var r wire.Command
	if err := decode(req, &r); err != nil {
		return failed(err), true
	}
	cmd, err := commandOf(r, payload)
	if err != nil {
		return failed(err), true
	}
	cmd.OffHeapOutput = true // the reply frees it (Reply.Free)
	wait, err := starter.StartRun(ctx, cmd)
	if err != nil {
		return failed(err), true
	}
	return func() (Reply, error) {
		res, err := wait()
		if err != nil {
			return Reply{}, mo.withStopReason(err)
		}
		return Reply{Header: runReply(res, mo.stopReason()), Body: [][]byte{res.Stdout, res.Stderr}, Free: res.Free}, nil
	}, true
}

// withStopReason adds the machine's stop reason to a MachineTerminated
// error (as Call does).
func (m *machineObject) withStopReason(err error) error {
	if err != nil && machine.KindOf(err) == machine.KindTerminated {
		if r := m.stopReason(); r != "" {
			err = &stoppedError{err, r}
		}
	}
	return err
}
