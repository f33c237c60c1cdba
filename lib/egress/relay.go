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
