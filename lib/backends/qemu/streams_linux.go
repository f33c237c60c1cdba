package qemu

import (
	"net"
	"sync"

	"github.com/hashicorp/yamux"
)

// streamPool hands out guest channel streams opened ahead of use. Opening
// a stream costs a frame each way (SYN, then the guest's ACK), each a
// notification of the hypervisor and an interrupt in the guest; a spare
// opened after the previous operation keeps that out of the next one's
// round trip. The first spare is opened only when a stream handed out is
// closed, so a machine that was never asked anything (a template about to
// be saved) has no stream open in its guest: a saved guest holding an open
// stream would refuse the restored host's first stream of the same ID.
type streamPool struct {
	session *yamux.Session
	spare   chan *yamux.Stream
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
	return &pooledStream{Stream: s, pool: p}, nil
}

// refill opens a spare unless there is one.
func (p *streamPool) refill() {
	if len(p.spare) > 0 || p.session.IsClosed() {
		return
	}
	s, err := p.session.OpenStream()
	if err != nil {
		return
	}
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
