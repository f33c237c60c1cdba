package qemu

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/yamux"
)

// streamPool hands out guest channel streams opened ahead of use. Opening
// a stream costs a frame each way (SYN, then the guest's ACK), each a
// notification of the hypervisor and an interrupt in the guest; a spare
// opened after the previous operation keeps that out of the next one's
// round trip. The first spare is opened only when a stream handed out is
// closed, and a template stops its pool before its state is saved: a saved
// guest holding an open stream would refuse the restored host's first
// stream of the same ID.
type streamPool struct {
	session *yamux.Session
	spare   chan *yamux.Stream

	mu      sync.Mutex
	stopped bool // no spare is opened any more (a template about to be saved)

	opened atomic.Int64 // streams opened so far (tests count them)
}

func newStreamPool(s *yamux.Session) *streamPool {
	return &streamPool{session: s, spare: make(chan *yamux.Stream, 1)}
}

// open returns a spare stream, or opens one when there is none.
func (p *streamPool) open() (net.Conn, error) {
	select {
	case s := <-p.spare:
		return &pooledStream{Stream: s, pool: p}, nil
	default:
	}
	s, err := p.session.OpenStream()
	if err != nil {
		return nil, err
	}
	p.opened.Add(1)
	return &pooledStream{Stream: s, pool: p}, nil
}

// stop closes the spare and opens none again: a template's streams must
// all close before its state is saved (quiesce).
func (p *streamPool) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	select {
	case s := <-p.spare:
		s.Close()
	default:
	}
}

// refill opens a spare unless there is one or the pool is stopped.
func (p *streamPool) refill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || len(p.spare) > 0 || p.session.IsClosed() {
		return
	}
	s, err := p.session.OpenStream()
	if err != nil {
		return
	}
	p.opened.Add(1)
	select {
	case p.spare <- s:
	default:
		s.Close()
	}
}

// pooledStream refills its pool when it is closed.
type pooledStream struct {
	*yamux.Stream
	pool *streamPool
	once sync.Once
}

func (c *pooledStream) Close() error {
	err := c.Stream.Close()
	c.once.Do(func() { go c.pool.refill() })
	return err
}

// Quiet says whether the guest's end of a stream kept between operations
// (execd.Client) is open and sent nothing since: yamux's Read reports a
// closed or reset stream, then buffered data, before it looks at the
// deadline, so a read whose deadline has passed times out only on a quiet
// stream. A byte it reads is lost, but such a stream is not kept anyway.
func (c *pooledStream) Quiet() bool {
	if c.SetReadDeadline(time.Unix(1, 0)) != nil {
		return false
	}
	var b [1]byte
	n, err := c.Read(b[:])
	var ne net.Error
	if n != 0 || !errors.As(err, &ne) || !ne.Timeout() {
		return false
	}
	return c.SetReadDeadline(time.Time{}) == nil
}
