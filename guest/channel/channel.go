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
	"encoding/binary"
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

// Coalesce wraps one end of the channel so that each multiplexer data
// frame reaches it in one write: yamux writes a frame's 12-byte header and
// its body separately, and every write to a virtio-serial port costs a
// notification of the hypervisor and an interrupt in the guest, the
// dearest part of a small exchange under TCG. The bytes written are the
// same, in the same order; a data header is only held until the body that
// the multiplexer writes right after it. Only the multiplexer's one send
// loop may write to it.
func Coalesce(c io.ReadWriteCloser) io.ReadWriteCloser {
	return &coalescer{ReadWriteCloser: c}
}

// Frame header layout of yamux (protocol version 0): version, type, flags
// (2 bytes), stream ID (4), length (4); type 0 is a data frame whose body
// of length bytes follows.
const (
	muxHeaderSize = 12
	muxTypeData   = 0
	// coalesceMax bounds the bodies copied behind their header; larger
	// ones are written on their own, where one more write costs little.
	coalesceMax = 32 << 10
)

type coalescer struct {
	io.ReadWriteCloser
	held bool
	buf  []byte
}

func (c *coalescer) Write(p []byte) (int, error) {
	if c.held {
		c.held = false
		c.buf = append(c.buf[:muxHeaderSize], p...)
		_, err := c.ReadWriteCloser.Write(c.buf)
		if err != nil {
			return 0, err
		}
		return len(p), nil
	}
	if len(p) == muxHeaderSize && p[0] == 0 && p[1] == muxTypeData {
		if n := binary.BigEndian.Uint32(p[8:]); n > 0 && n <= coalesceMax {
			c.buf = append(c.buf[:0], p...)
			c.held = true
			return len(p), nil
		}
	}
	return c.ReadWriteCloser.Write(p)
}
