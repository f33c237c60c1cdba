package egress

import (
	"encoding/json"
	"io"
	"sort"
	"sync"
	"time"
)

// Verdicts of a Record.
const (
	Allow = "allow"
	Block = "block"
)

// Events of a Record: every admission or refusal is a "decision"; an
// admitted connection adds a "close" line with its byte counts when it
// ends.
const (
	EventDecision = "decision"
	EventClose    = "close"
)

// Record is one line of the decision log.
type Record struct {
	Time      time.Time `json:"time"`
	Machine   string    `json:"machine,omitempty"`
	Phase     string    `json:"phase,omitempty"`
	Event     string    `json:"event"`
	Protocol  string    `json:"protocol"` // dns, tls, http, tcp, udp
	Name      string    `json:"name,omitempty"`
	Address   string    `json:"address,omitempty"`
	Port      int       `json:"port,omitempty"`
	Via       string    `json:"via,omitempty"` // proxy, or intercept (a connection that ignored the proxy)
	Verdict   string    `json:"verdict"`
	Reason    string    `json:"reason"`
	BytesUp   int64     `json:"bytes_up,omitempty"`
	BytesDown int64     `json:"bytes_down,omitempty"`
}

// HostCount is one host of a Summary.
type HostCount struct {
	Host  string `json:"host"`
	Count int    `json:"count"`
}

// Summary counts the decisions of a filter by host (a name, or the
// address when there was none).
type Summary struct {
	Allowed []HostCount `json:"allowed"`
	Blocked []HostCount `json:"blocked"`
}

// recorder writes records as JSON lines and keeps the counts of the
// summary.
type recorder struct {
	mu      sync.Mutex
	w       io.Writer
	enc     *json.Encoder
	allowed map[string]int
	blocked map[string]int
	err     error
}

func newRecorder(w io.Writer) *recorder {
	r := &recorder{w: w, allowed: map[string]int{}, blocked: map[string]int{}}
	if w != nil {
		r.enc = json.NewEncoder(w)
	}
	return r
}

func (r *recorder) write(rec Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rec.Event == EventDecision {
		host := rec.Name
		if host == "" {
			host = rec.Address
		}
		if rec.Verdict == Allow {
			r.allowed[host]++
		} else {
			r.blocked[host]++
		}
	}
	if r.enc != nil && r.err == nil {
		r.err = r.enc.Encode(rec)
	}
}

func (r *recorder) summary() Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Summary{Allowed: counts(r.allowed), Blocked: counts(r.blocked)}
}

func counts(m map[string]int) []HostCount {
	out := make([]HostCount, 0, len(m))
	for h, n := range m {
		out = append(out, HostCount{Host: h, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Host < out[j].Host
	})
	return out
}

// RecordWriter writes decision records for a network that is not the
// filter's own (ShellSim's virtual routes), in the same format.
type RecordWriter struct {
	r       *recorder
	machine string
}

// NewRecordWriter writes the records of machine to w.
func NewRecordWriter(w io.Writer, machine string) *RecordWriter {
	return &RecordWriter{r: newRecorder(w), machine: machine}
}

// Write writes rec with the time and machine filled in.
func (w *RecordWriter) Write(rec Record) {
	rec.Time = time.Now().UTC()
	rec.Machine = w.machine
	w.r.write(rec)
}
