package qemu

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

// A restoring QEMU gets its monitor as a connected socket pair, like the
// guest channel: the host writes every command of the restore before QEMU
// has even started its main loop, and QEMU answers them in order once it
// does. Compared with a listening socket (polled until QEMU creates it,
// then a greeting and a round trip per command), the restore waits for
// QEMU's start-up only.

// qmpFD is the restoring QEMU's monitor descriptor (after the guest
// channel, 3, and the saved state, 4).
const qmpFD = 5

// pipelineQMP sends the commands, after the capabilities negotiation, in
// one write and reads their answers in order, failing on the first error
// answer, when QEMU exits, at the deadline or when ctx ends.
func (m *Machine) pipelineQMP(ctx context.Context, conn net.Conn, deadline time.Time, cmds ...string) error {
	var req strings.Builder
	req.WriteString(`{"execute":"qmp_capabilities"}` + "\n")
	for _, c := range cmds {
		req.WriteString(c + "\n")
	}
	conn.SetDeadline(deadline)
	defer m.cutShort(ctx, conn.SetDeadline)()
	fail := func(step string, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// QEMU's end closes as it exits, maybe before it is reaped.
		wait := 2 * time.Second
		if errors.Is(err, os.ErrDeadlineExceeded) {
			wait = 0
		}
		if m.exitedWithin(wait) {
			return fmt.Errorf("QEMU exited (%s) before %s", m.cmd.ProcessState, step)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("QEMU's monitor was not done %s within the startup timeout", step)
		}
		return fmt.Errorf("QEMU's monitor, %s: %w", step, err)
	}
	if _, err := conn.Write([]byte(req.String())); err != nil {
		return fail("reading the commands", err)
	}
	// The greeting and events are skipped; each command has one answer.
	r := bufio.NewReader(conn)
	names := []string{"qmp_capabilities"}
	for _, c := range cmds {
		var cmd struct {
			Execute string `json:"execute"`
		}
		json.Unmarshal([]byte(c), &cmd)
		names = append(names, cmd.Execute)
	}
	for i := 0; i < len(names); {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return fail("answering "+names[i], err)
		}
		var msg struct {
			Return json.RawMessage `json:"return"`
			Error  *struct {
				Class string `json:"class"`
				Desc  string `json:"desc"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return fmt.Errorf("QEMU's monitor: %w: %.200q", err, line)
		}
		switch {
		case msg.Error != nil:
			return fmt.Errorf("QEMU's monitor refused %s: %s: %s", names[i], msg.Error.Class, msg.Error.Desc)
		case msg.Return != nil:
			i++
		}
	}
	return nil
}
