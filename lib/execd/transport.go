package execd

import "net"

// NewDialerClient returns a client that opens its connections with dial,
// for transports other than a unix socket (streams multiplexed over a
// virtual machine's serial port). Deadlines set on the connections must
// work. Like NewClient's, it keeps connections open between operations
// (up to maxIdle), which saves each command the opening and closing of a
// stream (over a guest channel, frames each way that the guest takes
// interrupts for), but only connections that implement Quieter: nothing
// else says whether a kept connection is still open. Close closes them.
func NewDialerClient(dial func() (net.Conn, error)) *Client {
	return &Client{dialer: dial, reuse: true}
}

// Quieter is a connection that can tell, without blocking, whether its
// peer's end is open and sent nothing since the last operation (see
// quiet).
type Quieter interface {
	Quiet() bool
}
