// Package channel is what the host and the guest agent agree on for their
// one virtio-serial stream: the readiness line the agent writes first and
// the stream multiplexer both sides run over it afterwards.
//
// The multiplexer is hashicorp/yamux: lib/execd opens one connection per
// operation, and yamux gives each its own stream with per-stream flow
// control, so a process whose output the host does not read stalls only
// its own stream, and deadlines work as on sockets.
package channel

import (
	"io"
	"time"

	"github.com/hashicorp/yamux"
)

// PortName is the virtio-serial port's default name.
const PortName = "shellbox"

// ReadyLine is the first thing the agent writes on the port, before any
// multiplexer traffic; the host discards whatever precedes it.
const ReadyLine = "\nshellbox-guest ready v1\n"

// Config is the multiplexer configuration of both ends.
func Config() *yamux.Config {
	c := yamux.DefaultConfig()
	// A paused or snapshotted guest, or one slowed down by TCG, must not
	// be declared dead by a heartbeat; the host watches QEMU instead.
	c.EnableKeepAlive = false
	c.ConnectionWriteTimeout = 5 * time.Minute
	c.StreamOpenTimeout = 0
	c.MaxStreamWindowSize = 1 << 20
	c.LogOutput = io.Discard
	c.Logger = nil
	return c
}
