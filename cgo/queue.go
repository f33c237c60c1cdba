package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"bytes"
	"fmt"
	"os"
	"runtime/debug"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/bridge"
	"github.com/shellbox/shellbox/lib/machine"
)

// Queued completions (sb_call_queued, ABI.md): a finished call waits in
// this queue and an eventfd becomes readable; the host's event loop then
// takes every waiting completion with one sb_drain, whose callbacks run on
// its own thread. The host thus never runs code on a library thread (for
// CPython: no interpreter state made for a foreign thread, no contention
// for its lock with the thread it wakes) and is woken once.

// completion is a finished call waiting for sb_drain. Its segments are
// the host's buffers (hostAlloc) or copies on the Go heap: the call's own
// memory is released when the call's goroutine ends.
type completion struct {
	id     uint64
	status int32
	header []byte
	host   [2]*C.uint8_t
	copies [2][]byte
	lens   [2]int
}

var queue struct {
	sync.Mutex
	waiting []completion
	fd      int // the eventfd; -1 until sb_completion_fd made it
	closed  bool
}

func init() { queue.fd = -1 }

//export sb_completion_fd
func sb_completion_fd() C.int {
	queue.Lock()
	defer queue.Unlock()
	if queue.fd < 0 && !queue.closed {
		fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
		if err != nil {
			return -1
		}
		queue.fd = fd
	}
	return C.int(queue.fd)
}

//export sb_call_queued
func sb_call_queued(call, handle C.uint64_t, method *C.char,
	req *C.uint8_t, reqLen C.size_t, payload *C.uint8_t, payloadLen C.size_t) {
	done := queued(uint64(call))
	queue.Lock()
	ready := queue.fd >= 0
	queue.Unlock()
	if !ready {
		done = reply(uint64(call))
	}
	theBridge.Start(uint64(call), uint64(handle), C.GoString(method), bytesOf(req, reqLen), bytesOf(payload, payloadLen), done)
}

// queued puts a call's outcome in the queue.
func queued(id uint64) bridge.Done {
	return func(header []byte, body [][]byte, err error) {
		c := completion{id: id}
		defer func() {
			// A fault copying a segment still completes the call, as an error.
			if r := recover(); r != nil {
				fmt.Fprintf(os.Stderr, "shellbox: panic replying to call %d: %v\n%s", id, r, debug.Stack())
				enqueue(completion{id: id, status: 1, header: bridge.EncodeError(&machine.InternalError{Op: "reply", Value: r})})
			}
		}()
		if err != nil {
			c.status, header, body = 1, bridge.EncodeError(err), nil
		}
		c.header = header
		for i := 0; i < len(c.lens) && i < len(body); i++ {
			seg := body[i]
			c.lens[i] = len(seg)
			if c.host[i] = hostAlloc(id, seg); c.host[i] == nil && len(seg) > 0 {
				c.copies[i] = bytes.Clone(seg)
			}
		}
		enqueue(c)
	}
}

var one = [8]byte{1} // an eventfd increment of 1 (little-endian)

func enqueue(c completion) {
	queue.Lock()
	if queue.closed {
		queue.Unlock()
		return
	}
	wake := len(queue.waiting) == 0
	queue.waiting = append(queue.waiting, c)
	fd := queue.fd
	queue.Unlock()
	// Only the first completion of a batch signals: sb_drain reads the
	// eventfd before it takes the batch, so a later one signals again.
	if wake {
		unix.Write(fd, one[:])
	}
}

//export sb_drain
func sb_drain() C.int32_t {
	queue.Lock()
	if queue.fd >= 0 {
		var count [8]byte
		unix.Read(queue.fd, count[:]) // EAGAIN when already reset: nothing to do
	}
	batch := queue.waiting
	queue.waiting = nil
	queue.Unlock()
	for _, c := range batch {
		var segs [2]*C.uint8_t
		for i := range segs {
			segs[i] = c.host[i]
			if segs[i] == nil {
				segs[i] = ptr(c.copies[i])
			}
		}
		invoke(c.id, c.status, c.header, segs, c.lens)
	}
	return C.int32_t(len(batch))
}

// dropQueued forgets waiting completions: after sb_shutdown nothing is
// reported.
func dropQueued() {
	queue.Lock()
	queue.waiting, queue.closed = nil, true
	queue.Unlock()
}
