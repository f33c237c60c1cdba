package guest

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
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
// and hands every other stream, with the bytes it looked at, to execd
// through Accept.
type streamRouter struct {
	session *yamux.Session
	conns   chan net.Conn
	// apply carries out a sync request (applySync; tests replace it).
	apply func(*channel.SyncRequest) error
}

func newStreamRouter(s *yamux.Session) *streamRouter {
	r := &streamRouter{session: s, conns: make(chan net.Conn), apply: applySync}
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

// route looks at a stream's first frame without consuming it.
func (r *streamRouter) route(c net.Conn) {
	br := bufio.NewReaderSize(c, 5+maxPeekPayload)
	if hdr, err := br.Peek(5); err == nil && hdr[0] == channel.FrameRequest {
		if n := int(binary.BigEndian.Uint32(hdr[1:])); n <= maxPeekPayload {
			if frame, err := br.Peek(5 + n); err == nil {
				var req channel.SyncRequest
				if json.Unmarshal(frame[5:], &req) == nil && req.Op == channel.OpSync {
					br.Discard(5 + n)
					r.answerSync(c, &req)
					return
				}
			}
		}
	}
	select {
	case r.conns <- &peekedConn{Conn: c, r: br}:
	case <-r.session.CloseChan():
		c.Close()
	}
}

type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (p *peekedConn) Read(b []byte) (int, error) { return p.r.Read(b) }

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
	f, err := os.OpenFile("/dev/urandom", os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	// struct rand_pool_info { int entropy_count; int buf_size; __u32 buf[]; }
	info := make([]byte, 8+len(b)+3)
	binary.NativeEndian.PutUint32(info[0:], uint32(8*len(b)))
	binary.NativeEndian.PutUint32(info[4:], uint32(len(b)))
	copy(info[8:], b)
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, f.Fd(), rndAddEntropy, uintptr(unsafe.Pointer(&info[0]))); e != 0 {
		return fmt.Errorf("RNDADDENTROPY: %w", e)
	}
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, f.Fd(), rndReseedCRNG, 0); e != 0 {
		return fmt.Errorf("RNDRESEEDCRNG: %w", e)
	}
	return nil
}
