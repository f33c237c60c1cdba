package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/bridge/wire"
)

// fuzzMethods are the ABI's methods a fuzzed request may reach (cgo/ABI.md),
// by the kind of handle they are called on. Methods that touch the host
// (upload, download, configure) or open other backends are left out: the
// fuzzer drives a ShellSim machine, which never runs a host program.
var fuzzMethods = []struct{ handle, method string }{
	{"root", "backends"},
	{"factory", "check_environment"},
	{"factory", "create"},
	{"machine", "run"},
	{"machine", "open_process"},
	{"machine", "close"},
	{"process", "write"},
	{"process", "close_stdin"},
	{"process", "read"},
	{"process", "wait"},
	{"process", "close"},
	{"any", "release"},
	{"root", "open_shell"},
	{"machine", "no_such_method"},
}

type fuzzReply struct {
	header []byte
	err    error
}

// fuzzCall makes a call that is cancelled after a second, as a caller
// gives up on a read of a process that waits for input: a call must then
// answer promptly.
func fuzzCall(t *testing.T, b *Bridge, id, handle uint64, method string, req, payload []byte) fuzzReply {
	done := make(chan fuzzReply, 1)
	b.Start(id, handle, method, req, payload, func(header []byte, _ [][]byte, err error) {
		done <- fuzzReply{append([]byte(nil), header...), err}
	})
	select {
	case r := <-done:
		return r
	case <-time.After(time.Second):
	}
	b.Cancel(id)
	select {
	case r := <-done:
		return r
	case <-time.After(10 * time.Second):
		t.Fatalf("%s %q: no answer 10s after its cancellation", method, req)
	}
	return fuzzReply{}
}

// internal reports a panic the bridge recovered from.
func internal(err error) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		if fmt.Sprintf("%T", err) == "*machine.InternalError" {
			return true
		}
	}
	return false
}

// FuzzABIRequest sends two arbitrary requests to a ShellSim machine's
// handles, as a buggy or hostile caller of the C ABI could: every call must
// answer (at the latest once cancelled) with valid JSON or an error that
// encodes to an error header, and nothing may panic.
func FuzzABIRequest(f *testing.F) {
	for _, s := range []struct {
		m1   byte
		req1 string
		m2   byte
		req2 string
	}{
		{3, `{"argv":["sh","-c","echo hi; cat"],"timeout":5,"output_limit_bytes":100}`, 3, `{"argv":["true"]}`},
		{4, `{"argv":["cat"],"output_limit_bytes":10}`, 6, `{}`},
		{4, `{"argv":["sh","-c","exit 3"]}`, 9, `{}`},
		{4, `{"argv":["cat"]}`, 8, `{"max_bytes":-1}`},
		{4, `{"argv":["cat"]}`, 8, `{"max_bytes":1e300}`},
		{2, `{"source":{"type":"ShellSimBuiltins"},"workdir":"/w","env":{"A":"b"}}`, 5, `{}`},
		{2, `{"source":{"type":"PreparedImage","source":{"type":"PreparedImage","source":null}}}`, 0, `{}`},
		{1, `{"requirements":{"command_semantics":"linux_process"},"spec":{"source":{"type":"HostImage"}}}`, 1, `{"spec":null}`},
		{3, `{"argv":[],"timeout":-1}`, 3, `{"argv":["a\u0000b"],"cwd":"rel","env":{"=":"x"}}`},
		{3, `{"argv":["sh"],"timeout":"NaN","output_limit_bytes":-5}`, 3, `{"argv":["x"],"timeout":1e308}`},
		{3, `[1,2,3]`, 3, `null`},
		{3, `{"argv":"not a list"}`, 3, "\xff\xfe"},
		{12, `{"machine":2,"mode":"auto","env":{"X":"1"}}`, 12, `{"machine":99,"mode":"bogus"}`},
		{12, `{"machine":2,"mode":"pipe","bash":"/bin/bash"}`, 11, `{}`},
		{5, `{}`, 3, `{"argv":["true"]}`},
		{11, `{}`, 3, `{"argv":["true"]}`},
		{13, `{}`, 0, ``},
		// A process closed before its input ended: its release by Shutdown
		// waited 30s for a run that never started.
		{4, `{"Argv":[" 0"]}`, 10, "\x10"},
	} {
		f.Add(s.m1, []byte(s.req1), s.m2, []byte(s.req2), []byte("stdin\x00\xff"))
	}
	f.Fuzz(func(t *testing.T, m1 byte, req1 []byte, m2 byte, req2 []byte, payload []byte) {
		b := New()
		defer func() {
			// Shutdown releases every handle; it must not wait on
			// anything a request left behind.
			done := make(chan struct{})
			go func() { b.Shutdown(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Shutdown took over 10s")
			}
		}()
		handles := map[string]uint64{"root": Root}
		open := fuzzCall(t, b, 1, Root, "open_factory", []byte(`{"backend":"shellsim","options":{"cpu":200000,"memory_mb":64,"disk":1048576,"output":1048576}}`), nil)
		var h handleReply
		if open.err != nil || json.Unmarshal(open.header, &h) != nil {
			t.Fatalf("open_factory: %s %v", open.header, open.err)
		}
		handles["factory"] = h.Handle
		created := fuzzCall(t, b, 2, h.Handle, "create", []byte(`{"source":{"type":"ShellSimBuiltins"}}`), nil)
		if created.err != nil || json.Unmarshal(created.header, &h) != nil {
			t.Fatalf("create: %s %v", created.header, created.err)
		}
		handles["machine"], handles["any"] = h.Handle, h.Handle
		handles["process"] = h.Handle // until a call opens one
		id := uint64(2)
		for _, c := range []struct {
			m   byte
			req []byte
		}{{m1, req1}, {m2, req2}} {
			target := fuzzMethods[int(c.m)%len(fuzzMethods)]
			id++
			r := fuzzCall(t, b, id, handles[target.handle], target.method, c.req, payload)
			if r.err != nil {
				if internal(r.err) {
					t.Fatalf("%s %q: a panic: %v", target.method, c.req, r.err)
				}
				var header wire.Error
				if err := json.Unmarshal(EncodeError(r.err), &header); err != nil || header.Kind == "" {
					t.Fatalf("%s: error header %s: %v", target.method, EncodeError(r.err), err)
				}
				continue
			}
			if !json.Valid(r.header) {
				t.Fatalf("%s %q: reply header %q is not JSON", target.method, c.req, r.header)
			}
			var opened handleReply
			if json.Unmarshal(r.header, &opened) == nil && opened.Handle != 0 {
				if target.method == "open_process" {
					handles["process"] = opened.Handle
				}
				handles["any"] = opened.Handle
			}
		}
	})
}
