package machine

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// OffHeapMin is the smallest output limit kept outside the Go heap when a
// caller asks for it (Command.OffHeapOutput); below it a heap slice is as
// cheap.
const OffHeapMin = 8 << 20

// Output keeps the first limit bytes written to it and notes whether more
// came. Off the heap it writes into an anonymous mapping reserved at the
// limit: pages count only once written, growing never copies, and Free
// returns the memory to the system at once (the Go heap would keep it).
type Output struct {
	limit     int
	buf       []byte
	mapping   []byte // off the heap: the whole reservation
	truncated bool
}

// NewOutput makes an Output for limit bytes, off the heap when offHeap is
// set and limit is at least OffHeapMin (and the system grants the mapping).
func NewOutput(limit int, offHeap bool) *Output {
	o := &Output{limit: max(limit, 0)}
	if offHeap && limit >= OffHeapMin {
		m, err := unix.Mmap(-1, 0, limit, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
		if err == nil {
			o.mapping, o.buf = m, m[:0]
			mappings.Store(addr(m), len(m))
		}
	}
	return o
}

// Write keeps what fits under the limit; it never fails.
func (o *Output) Write(p []byte) (int, error) {
	keep := min(len(p), o.limit-len(o.buf))
	if keep > 0 {
		o.buf = append(o.buf, p[:keep]...)
	}
	if keep < len(p) {
		o.truncated = true
	}
	return len(p), nil
}

// Bytes is what was kept; off the heap it is valid until Free.
func (o *Output) Bytes() []byte { return o.buf }

// Truncated says whether more than the limit was written.
func (o *Output) Truncated() bool { return o.truncated }

// OffHeap says whether the bytes live outside the Go heap.
func (o *Output) OffHeap() bool { return o.mapping != nil }

// Free returns an off-heap Output's memory; Bytes must not be used
// afterwards. It is a no-op on the heap and when called again.
func (o *Output) Free() {
	if o.mapping == nil {
		return
	}
	mappings.Delete(addr(o.mapping))
	_ = unix.Munmap(o.mapping)
	o.mapping, o.buf = nil, nil
}

// mappings holds the live off-heap Outputs (address -> length), so that
// Discard can tell their memory from anything else.
var mappings sync.Map

func addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// Discard returns the pages wholly inside b to the system when b lies in
// a live off-heap Output (which then reads them as zeros); anything else
// is left alone. A receiver that has copied part of a large output calls
// it so that the copy and the original are never both resident.
func Discard(b []byte) {
	if len(b) == 0 {
		return
	}
	start := addr(b)
	inside := false
	mappings.Range(func(k, v any) bool {
		base := k.(uintptr)
		if start >= base && start+uintptr(len(b)) <= base+uintptr(v.(int)) {
			inside = true
			return false
		}
		return true
	})
	if !inside {
		return
	}
	page := uintptr(unix.Getpagesize())
	first := (start + page - 1) &^ (page - 1)
	last := (start + uintptr(len(b))) &^ (page - 1)
	if last > first {
		_ = unix.Madvise(b[first-start:last-start], unix.MADV_DONTNEED)
	}
}
