package guest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path"
	"time"
	"unsafe"

	"github.com/hashicorp/yamux"
	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/guest/channel"
)

// From linux/random.h (x/sys/unix does not define them).
const (
	rndAddEntropy  = 0x40085203
	rndReseedCRNG  = 0x5207
	maxPeekPayload = 64 << 10
)

// streamRouter accepts the channel's streams, answers sync requests itself
// and hands every other stream, with the bytes it looked at, to execd:
// to handle in the stream's own goroutine, or, when that is nil, through
// Accept.
type streamRouter struct {
	session *yamux.Session
	conns   chan net.Conn
	handle  func(net.Conn)
	// apply carries out a sync request (applySync; tests replace it).
	apply func(*channel.SyncRequest) error
}

func newStreamRouter(s *yamux.Session, handle func(net.Conn)) *streamRouter {
	r := &streamRouter{session: s, conns: make(chan net.Conn), handle: handle, apply: applySync}
	go func() {
		for {
			c, err := s.Accept()
			if err != nil {
				return
			}
			go r.route(c)
		}
	}()
	return r
}

func (r *streamRouter) Accept() (net.Conn, error) {
	select {
	case c := <-r.conns:
		return c, nil
	case <-r.session.CloseChan():
		return nil, yamux.ErrSessionShutdown
	}
}

func (r *streamRouter) Close() error   { return r.session.Close() }
func (r *streamRouter) Addr() net.Addr { return r.session.Addr() }

// route reads a stream's first frame and answers it when it is a sync
// request; any other stream goes to execd with the frame in front of the
// rest. The frame is read into a buffer of its own size, and only a frame
// that names the sync operation is decoded: this runs for every command.
func (r *streamRouter) route(c net.Conn) {
	r.pass(c, r.readFirst(c))
}

// readFirst reads the first frame of a stream, answering it when it is a
// sync request (then it returns nil); otherwise it returns the bytes it
// read, all of them, for execd (which judges short or broken frames).
func (r *streamRouter) readFirst(c net.Conn) []byte {
	var hdr [5]byte
	if n, err := io.ReadFull(c, hdr[:]); err != nil {
		return hdr[:n]
	}
	n := int(binary.BigEndian.Uint32(hdr[1:]))
	if hdr[0] != channel.FrameRequest || n > maxPeekPayload {
		return hdr[:]
	}
	frame := make([]byte, 5+n)
	copy(frame, hdr[:])
	if m, err := io.ReadFull(c, frame[5:]); err != nil {
		return frame[:5+m]
	}
	if bytes.Contains(frame[5:], syncOpName) {
		var req channel.SyncRequest
		if json.Unmarshal(frame[5:], &req) == nil && req.Op == channel.OpSync {
			r.answerSync(c, &req)
			return nil
		}
	}
	return frame
}

// pass hands a stream to execd, head first (nil: the stream was answered).
func (r *streamRouter) pass(c net.Conn, head []byte) {
	if head == nil {
		return
	}
	if r.handle != nil {
		r.handle(&peekedConn{Conn: c, head: head})
		return
	}
	select {
	case r.conns <- &peekedConn{Conn: c, head: head}:
	case <-r.session.CloseChan():
		c.Close()
	}
}

// syncOpName is in every sync request's JSON.
var syncOpName = []byte(`"` + channel.OpSync + `"`)

// peekedConn is a stream whose first bytes were read already.
type peekedConn struct {
	net.Conn
	head []byte
}

func (p *peekedConn) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	return p.Conn.Read(b)
}

func (r *streamRouter) answerSync(c net.Conn, req *channel.SyncRequest) {
	defer c.Close()
	if err := r.apply(req); err != nil {
		msg, _ := json.Marshal(map[string]string{"kind": "other", "message": err.Error()})
		channel.WriteFrame(c, channel.FrameFailure, msg)
		return
	}
	channel.WriteFrame(c, channel.FrameOK, []byte("{}"))
}

// applySync sets the clock, feeds and reseeds the random generator and
// makes the working directory.
func applySync(req *channel.SyncRequest) error {
	if req.UnixNano > 0 {
		tv := unix.NsecToTimeval(time.Unix(0, req.UnixNano).UnixNano())
		if err := unix.Settimeofday(&tv); err != nil {
			return fmt.Errorf("setting the clock: %w", err)
		}
	}
	if len(req.Entropy) > 0 {
		if err := addEntropy(req.Entropy); err != nil {
			return err
		}
	}
	if req.Workdir != "" {
		if !path.IsAbs(req.Workdir) {
			return errors.New("the working directory must be absolute")
		}
		if err := os.MkdirAll(req.Workdir, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// addEntropy credits the bytes to the kernel's pool and forces the
// generator to reseed, so that restored copies of one saved machine stop
// sharing their random state at once.
func addEntropy(b []byte) error {
	// A plain descriptor: os.OpenFile would register it with the
	// runtime's poller (two epoll_ctl calls and their code paths, run
	// for the first time in every restored machine under TCG).
	fd, err := unix.Open("/dev/urandom", unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: "/dev/urandom", Err: err}
	}
	defer unix.Close(fd)
	// struct rand_pool_info { int entropy_count; int buf_size; __u32 buf[]; }
	info := make([]byte, 8+len(b)+3)
	binary.NativeEndian.PutUint32(info[0:], uint32(8*len(b)))
	binary.NativeEndian.PutUint32(info[4:], uint32(len(b)))
	copy(info[8:], b)
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), rndAddEntropy, uintptr(unsafe.Pointer(&info[0]))); e != 0 {
		return fmt.Errorf("RNDADDENTROPY: %w", e)
	}
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), rndReseedCRNG, 0); e != 0 {
		return fmt.Errorf("RNDRESEEDCRNG: %w", e)
	}
	return nil
}
