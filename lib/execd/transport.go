package execd

import "net"

// NewDialerClient returns a client that opens one connection per operation
// with dial, for transports other than a unix socket (streams multiplexed
// over a virtual machine's serial port). Deadlines set on the connections
// must work.
func NewDialerClient(dial func() (net.Conn, error)) *Client {
	return &Client{dialer: dial}
}
