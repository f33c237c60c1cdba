package main

import (
	"encoding/json"
	"fmt"
	"time"

	_ "github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/bridge"
	"github.com/shellbox/shellbox/lib/bridge/wire"
)

// throughBridge measures Run(["true"]) as the Python package makes it: a
// JSON request through lib/bridge's asynchronous Start, the reply encoded
// as the C ABI hands it over; what it adds to Run is the bridge's share
// of the Python call.
func throughBridge(n int) (time.Duration, error) {
	b := bridge.New()
	defer b.Shutdown()
	var id uint64
	call := func(handle uint64, method, req string) ([]byte, error) {
		id++
		type outcome struct {
			header []byte
			err    error
		}
		ch := make(chan outcome, 1)
		b.Start(id, handle, method, []byte(req), nil, func(header []byte, _ [][]byte, err error) {
			ch <- outcome{header, err}
		})
		o := <-ch
		return o.header, o.err
	}
	handle := func(method string, h uint64, req string) (uint64, error) {
		head, err := call(h, method, req)
		if err != nil {
			return 0, err
		}
		var r wire.HandleReply
		return r.Handle, json.Unmarshal(head, &r)
	}
	factory, err := handle("open_factory", bridge.Root, `{"backend":"local","options":{"read_only":[],"bin_dirs":[],"bwrap":"","cache_dir":"","pids_limit":0,"system_directories":"","cgroup_parent":""}}`)
	if err != nil {
		return 0, err
	}
	m, err := handle("create", factory, `{"source":{"type":"HostImage","read_only":[],"bin_dirs":[],"mounts":[]},"workdir":"/workspace","env":{},"network":"deny","gpus":0,"allowed_hosts":[]}`)
	if err != nil {
		return 0, err
	}
	defer call(m, "close", "{}")
	req := `{"argv":["true"],"env":{},"output_limit_bytes":1048576}`
	runOnce := func() error {
		head, err := call(m, "run", req)
		if err != nil {
			return err
		}
		var r wire.RunReply
		if err := json.Unmarshal(head, &r); err != nil || r.ExitCode == nil || *r.ExitCode != 0 {
			return fmt.Errorf("true failed: %s %v", head, err)
		}
		return nil
	}
	measure(50, runOnce)
	return measure(n, runOnce)
}
