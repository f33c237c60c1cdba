// Command cgo is the C ABI of libshellbox.so, built with
// `go build -buildmode=c-shared`. It only moves bytes between C and
// lib/bridge; ABI.md documents the calls.
package main

/*
#include <stdint.h>
#include <stddef.h>

typedef void (*sb_callback)(uint64_t call, int32_t status,
	const uint8_t *header, size_t header_len,
	const uint8_t *seg0, size_t seg0_len,
	const uint8_t *seg1, size_t seg1_len);

typedef uint8_t *(*sb_alloc)(uint64_t call, size_t len);

static uint8_t *sb_alloc_invoke(sb_alloc alloc, uint64_t call, size_t len) {
	return alloc(call, len);
}

static void sb_invoke(sb_callback cb, uint64_t call, int32_t status,
	const uint8_t *header, size_t header_len,
	const uint8_t *seg0, size_t seg0_len,
	const uint8_t *seg1, size_t seg1_len) {
	cb(call, status, header, header_len, seg0, seg0_len, seg1, seg1_len);
}
*/
import "C"

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync/atomic"
	"unsafe"

	_ "github.com/shellbox/shellbox/lib/backends/all"
	"github.com/shellbox/shellbox/lib/bridge"
	"github.com/shellbox/shellbox/lib/machine"
)

// ABIVersion changes whenever a signature, the reply framing or a method's
// JSON (lib/bridge/wire) changes incompatibly.
const ABIVersion = 3

// hostBuffer is the segment size from which a reply is copied into memory
// the host allocates (sb_alloc), which the host then keeps without a copy
// of its own.
const hostBuffer = 1 << 20

var (
	theBridge = bridge.New()
	callback  atomic.Pointer[C.sb_callback]
	allocator atomic.Pointer[C.sb_alloc]
)

//export sb_abi_version
func sb_abi_version() C.int32_t { return ABIVersion }

//export sb_init
func sb_init(cb C.sb_callback, alloc C.sb_alloc) C.int32_t {
	callback.Store(&cb)
	if alloc != nil {
		allocator.Store(&alloc)
	}
	return ABIVersion
}

//export sb_call
func sb_call(call, handle C.uint64_t, method *C.char,
	req *C.uint8_t, reqLen C.size_t, payload *C.uint8_t, payloadLen C.size_t) {
	// The caller keeps req and payload alive until the callback for this
	// call has run, so they are used in place.
	theBridge.Start(uint64(call), uint64(handle), C.GoString(method), bytesOf(req, reqLen), bytesOf(payload, payloadLen),
		reply(uint64(call)))
}

//export sb_call_sync
func sb_call_sync(call, handle C.uint64_t, method *C.char,
	req *C.uint8_t, reqLen C.size_t, payload *C.uint8_t, payloadLen C.size_t) {
	theBridge.Call(uint64(handle), C.GoString(method), bytesOf(req, reqLen), bytesOf(payload, payloadLen),
		reply(uint64(call)))
}

func bytesOf(p *C.uint8_t, n C.size_t) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}

// reply hands a call's outcome to the registered callback.
func reply(id uint64) bridge.Done {
	return func(header []byte, body [][]byte, err error) {
		cb := callback.Load()
		if cb == nil {
			return
		}
		invoked := false
		defer func() {
			// A panic before the callback ran (a fault copying a segment)
			// still completes the call, as an error.
			if r := recover(); r != nil && !invoked {
				fmt.Fprintf(os.Stderr, "shellbox: panic replying to call %d: %v\n%s", id, r, debug.Stack())
				head := bridge.EncodeError(&machine.InternalError{Op: "reply", Value: r})
				C.sb_invoke(*cb, C.uint64_t(id), 1, ptr(head), C.size_t(len(head)), nil, 0, nil, 0)
			}
		}()
		status := C.int32_t(0)
		if err != nil {
			status, header, body = 1, bridge.EncodeError(err), nil
		}
		var segs [2][]byte
		copy(segs[:], body)
		var ptrs [2]*C.uint8_t
		for i, seg := range segs {
			ptrs[i] = hostCopy(id, seg)
		}
		invoked = true
		C.sb_invoke(*cb, C.uint64_t(id), status,
			ptr(header), C.size_t(len(header)),
			ptrs[0], C.size_t(len(segs[0])),
			ptrs[1], C.size_t(len(segs[1])))
	}
}

// hostCopy moves a large segment into a buffer of the host's (so that the
// host need not copy it again, and off-heap output is released as it is
// copied); smaller segments, or when the host gives no buffer, are passed
// in place.
func hostCopy(id uint64, seg []byte) *C.uint8_t {
	if p := hostAlloc(id, seg); p != nil {
		return p
	}
	return ptr(seg)
}

// hostAlloc is hostCopy's buffer of the host's, or nil when seg stays
// where it is.
func hostAlloc(id uint64, seg []byte) *C.uint8_t {
	alloc := allocator.Load()
	if alloc == nil || len(seg) < hostBuffer {
		return nil
	}
	p := C.sb_alloc_invoke(*alloc, C.uint64_t(id), C.size_t(len(seg)))
	if p == nil {
		return nil
	}
	bridge.Move(unsafe.Slice((*byte)(unsafe.Pointer(p)), len(seg)), seg)
	return p
}

// invoke calls the host's callback, on the calling thread.
func invoke(id uint64, status int32, header []byte, segs [2]*C.uint8_t, lens [2]int) {
	cb := callback.Load()
	if cb == nil {
		return
	}
	C.sb_invoke(*cb, C.uint64_t(id), C.int32_t(status), ptr(header), C.size_t(len(header)),
		segs[0], C.size_t(lens[0]), segs[1], C.size_t(lens[1]))
}

//export sb_cancel
func sb_cancel(call C.uint64_t) { theBridge.Cancel(uint64(call)) }

//export sb_shutdown
func sb_shutdown() {
	theBridge.Shutdown()
	callback.Store(nil)
	dropQueued()
}

func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

func main() {}
