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

static void sb_invoke(sb_callback cb, uint64_t call, int32_t status,
	const uint8_t *header, size_t header_len,
	const uint8_t *seg0, size_t seg0_len,
	const uint8_t *seg1, size_t seg1_len) {
	cb(call, status, header, header_len, seg0, seg0_len, seg1, seg1_len);
}
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	_ "github.com/shellbox/shellbox/lib/backends/all"
	"github.com/shellbox/shellbox/lib/bridge"
)

// ABIVersion changes whenever a signature or the reply framing changes.
const ABIVersion = 1

var (
	theBridge = bridge.New()
	callback  atomic.Pointer[C.sb_callback]
)

//export sb_abi_version
func sb_abi_version() C.int32_t { return ABIVersion }

//export sb_init
func sb_init(cb C.sb_callback) C.int32_t {
	callback.Store(&cb)
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
		status := C.int32_t(0)
		if err != nil {
			status, header, body = 1, bridge.EncodeError(err), nil
		}
		var segs [2][]byte
		copy(segs[:], body)
		C.sb_invoke(*cb, C.uint64_t(id), status,
			ptr(header), C.size_t(len(header)),
			ptr(segs[0]), C.size_t(len(segs[0])),
			ptr(segs[1]), C.size_t(len(segs[1])))
	}
}

//export sb_cancel
func sb_cancel(call C.uint64_t) { theBridge.Cancel(uint64(call)) }

//export sb_shutdown
func sb_shutdown() {
	theBridge.Shutdown()
	callback.Store(nil)
}

func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

func main() {}
