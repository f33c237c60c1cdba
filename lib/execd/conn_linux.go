package execd

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// quiet says whether the helper's end of a kept connection is open and
// sent nothing since the last operation: a request is never sent on a
// connection the helper has already given up (it may exit, or close a
// connection it can no longer serve).
func (cn *conn) quiet() bool {
	sc, ok := cn.c.(syscall.Conn)
	if !ok {
		q, ok := cn.c.(Quieter)
		return ok && q.Quiet()
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	quiet := false
	raw.Control(func(fd uintptr) {
		var b [1]byte
		_, _, err := unix.Recvfrom(int(fd), b[:], unix.MSG_PEEK|unix.MSG_DONTWAIT)
		quiet = err == unix.EAGAIN
	})
	return quiet
}
