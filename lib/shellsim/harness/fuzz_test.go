package harness

import (
	"encoding/json"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// FuzzDecodeRequest: the decoder never panics, and a request it accepts
// is answered with exactly one JSON response line.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"op":"execute","source":"echo hi"}`,
		`{"op":"fork_session","source":0}`,
		`{"op":"write_file","path":"a","data_base64":"aGk=","mode":420}`,
		`{"op":"poll_action","action_id":0,"work_quanta":100000,"advance_time":true}`,
		`{"session_id":3,"op":"drop_session","target":1}`,
		`{"op":"execute","source":"x"} trailing`,
		`{"op":`, `[]`, `null`, "\r", `{"id":{"a":[1,2]},"op":"inspect"}`,
	} {
		f.Add([]byte(seed))
	}
	s, err := New(Options{Limits: limitsForFuzz()})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := DecodeRequest(line)
		if err == nil && req.Op == "" {
			t.Fatal("accepted a request without op")
		}
		if err == nil && (req.Op == "execute" || req.Op == "start_execute" || req.Op == "signal_process") {
			return // running arbitrary scripts is the engine's fuzz target, not the decoder's
		}
		out := s.HandleLine(line)
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("response is not JSON: %q", out)
		}
		if _, ok := m["ok"].(bool); !ok {
			t.Fatalf("response without ok: %q", out)
		}
	})
}

func limitsForFuzz() (l shellsim.Limits) {
	l.CPU, l.Memory, l.Disk, l.Output = 1_000_000, 16<<20, 16<<20, 1<<20
	return l
}
