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
	"fmt"
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

// OpSync is the one operation the guest program answers itself rather
// than lib/execd: the host sends it on every new channel (after a cold
// boot and after a restore from a saved state) so that the guest's clock,
// randomness and working directory are this machine's, not the saved
// template's. It travels in a stream of its own, framed as execd frames:
// a request frame ('R') with a JSON SyncRequest, answered by an ok frame
// ('A') or a failure frame ('F').
const OpSync = "guest.sync"

// SyncRequest carries what a guest must not inherit from a saved state.
type SyncRequest struct {
	Op string `json:"op"`
	// UnixNano is the host's wall clock when the request was sent.
	UnixNano int64 `json:"unix_nano"`
	// Entropy is fresh host randomness, credited to the guest's pool and
	// followed by a reseed of its generator.
	Entropy []byte `json:"entropy"`
	// Workdir is created (with its parents) when it does not exist.
	Workdir string `json:"workdir,omitempty"`
}

// Frame types of the sync exchange (the same bytes as lib/execd's).
const (
	FrameRequest byte = 'R'
	FrameOK      byte = 'A'
	FrameFailure byte = 'F'
)

// maxSyncFrame bounds a sync frame's payload.
const maxSyncFrame = 64 << 10

// WriteFrame writes one frame: type, big-endian uint32 length, payload.
func WriteFrame(w io.Writer, typ byte, payload []byte) error {
	hdr := []byte{typ, byte(len(payload) >> 24), byte(len(payload) >> 16), byte(len(payload) >> 8), byte(len(payload))}
	_, err := w.Write(append(hdr, payload...))
	return err
}

// ReadFrame reads one frame of at most 64 KiB.
func ReadFrame(r io.Reader) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := int(hdr[1])<<24 | int(hdr[2])<<16 | int(hdr[3])<<8 | int(hdr[4])
	if n > maxSyncFrame {
		return 0, nil, fmt.Errorf("channel: frame of %d bytes exceeds %d", n, maxSyncFrame)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return 0, nil, err
	}
	return hdr[0], p, nil
}
