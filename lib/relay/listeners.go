package relay

import (
	"net"
	"sync"
)

// JoinListeners is one listener accepting from all of lns (the guest
// program listens on loopback and, in a gVisor task group, on the member's
// group address too); its Addr is the first one's.
func JoinListeners(lns ...net.Listener) net.Listener {
	if len(lns) == 1 {
		return lns[0]
	}
	j := &joined{lns: lns, conns: make(chan net.Conn), done: make(chan struct{}), errc: make(chan error, len(lns))}
	for _, ln := range lns {
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					j.errc <- err
					return
				}
				select {
				case j.conns <- c:
				case <-j.done:
					c.Close()
					return
				}
			}
		}()
	}
	return j
}

type joined struct {
	lns   []net.Listener
	conns chan net.Conn
	errc  chan error
	done  chan struct{}
	once  sync.Once
}

func (j *joined) Accept() (net.Conn, error) {
	select {
	case c := <-j.conns:
		return c, nil
	case err := <-j.errc:
		// One listener failed: the relay stops, as with a single one.
		j.Close()
		return nil, err
	case <-j.done:
		return nil, net.ErrClosed
	}
}

func (j *joined) Close() error {
	j.once.Do(func() {
		close(j.done)
		for _, ln := range j.lns {
			ln.Close()
		}
	})
	return nil
}

func (j *joined) Addr() net.Addr { return j.lns[0].Addr() }
