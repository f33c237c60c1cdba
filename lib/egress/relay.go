package egress

import (
	"io"
	"sync"
)

// relay copies src to dst until src ends, through a pooled buffer in this
// process, never by splice(2). io.Copy between two TCP sockets would
// splice (no byte through user space), but on loopback and veth that
// costs more CPU time per GiB than reading and writing 256 KiB at a time
// (1.3 to 1.5 s against 1.05 to 1.25 s per GiB relayed, client and
// server included: bench/egress's CPU line on 2 cores): the guest reads fresh
// segments this process just wrote, not the upstream's pages, which have
// been queued through two sockets and a pipe since they were written and
// are no longer in the caches. Splicing also holds a pipe (two
// descriptors) per copy, cached by the runtime beyond it.
//
// What else was measured and not kept (bench/egress's plain-HTTP
// download on 2 shared cores, kernel 6.18, configurations alternated
// round by round): a BPF sockmap that sends the upstream's bytes to the
// guest's socket in the kernel (an SK_SKB verdict program calling
// bpf_sk_redirect_map) moved 100 MiB at half the speed of this copy in a
// prototype, for 0.99 to 1.02 s of this process's CPU time per GiB
// against 0.74 to 0.93 (the kworker that sends the redirected bytes not
// counted); it would also need a byte count to stop at the end of each
// body, since response heads are parsed and rewritten here. Bounding the
// upstream's receive buffer (which would also cap the window of a distant
// upstream), SO_RCVLOWAT of 64 KiB to 512 KiB, TCP_QUICKACK off, Nagle
// during a body, 64 KiB to 512 KiB buffers and GOMAXPROCS 1 to 4 changed
// the CPU time per GiB by less than the rounds' spread (3 to 5%); reading
// and writing in two goroutines cost 7% more. In perf, the filter's
// copies are about a quarter of its own time; the rest is the kernel's
// TCP work for the second connection.
//
// bulk asks for the large buffer: for a body whose remaining length is
// known to be large, so that the buffer is held only while that body
// moves. Streams that may idle for long (tunnels, upgraded connections,
// a body that ends with its connection) hold a small one.
func relay(dst io.Writer, src io.Reader, bulk bool) (int64, error) {
	pool := &streamBuffers
	if bulk {
		pool = &bulkBuffers
	}
	bp := pool.Get().(*[]byte)
	defer pool.Put(bp)
	// The wrappers hide io.ReaderFrom and io.WriterTo, which would splice.
	return io.CopyBuffer(writerOnly{dst}, readerOnly{src}, *bp)
}

// Buffer sizes: larger bulk buffers did not lower the CPU time per GiB
// in bench/egress; the stream size is io.Copy's own.
const (
	bulkBufferSize   = 256 << 10
	streamBufferSize = 32 << 10
)

var (
	bulkBuffers   = sync.Pool{New: func() any { b := make([]byte, bulkBufferSize); return &b }}
	streamBuffers = sync.Pool{New: func() any { b := make([]byte, streamBufferSize); return &b }}
)

type writerOnly struct{ io.Writer }

type readerOnly struct{ io.Reader }
