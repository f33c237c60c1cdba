package execd

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/shellbox/shellbox/lib/machine"
)

// MaxFrame bounds one frame's payload.
const MaxFrame = 1 << 20

// chunkSize is how much data one D, I or O frame carries at most.
const chunkSize = 64 << 10

// Frame types; see the package documentation.
const (
	FrameRequest  byte = 'R'
	FrameStdin    byte = 'I'
	FrameStdinEOF byte = 'i'
	FrameData     byte = 'D'
	FrameDataEnd  byte = 'd'
	FrameStdout   byte = 'O'
	FrameStderr   byte = 'E'
	FrameExit     byte = 'X'
	FrameOK       byte = 'A'
	FrameFailure  byte = 'F'
)

// Operations a Request names.
const (
	OpExec     = "exec"
	OpKill     = "kill"
	OpUpload   = "upload"
	OpDownload = "download"
	OpShutdown = "shutdown"
)

// Request is the first frame of every connection.
type Request struct {
	Op string `json:"op"`
	ID uint64 `json:"id,omitempty"` // exec and kill: the exec's id

	// exec
	Argv   []string `json:"argv,omitempty"`
	Env    []string `json:"env,omitempty"`
	Dir    string   `json:"dir,omitempty"`
	Stdin  bool     `json:"stdin,omitempty"`  // stdin frames follow
	Stream bool     `json:"stream,omitempty"` // OpenProcess mode
	// TTY (with Stream) runs the command as the leader of a new session on
	// a fresh pseudo-terminal: stdin frames are the terminal's input, stdout
	// frames its output, and there is no separate stderr.
	TTY         bool   `json:"tty,omitempty"`
	TimeoutMS   int64  `json:"timeout_ms,omitempty"`
	OutputLimit int    `json:"output_limit"`
	SwitchUser  bool   `json:"switch_user,omitempty"`
	UID         uint32 `json:"uid,omitempty"`
	GID         uint32 `json:"gid,omitempty"`

	// upload and download
	Path string `json:"path,omitempty"`
	// AllowedLinks are absolute paths that may be symbolic links when a
	// transfer path is resolved (the sandbox's merged-/usr links); any other
	// link on the way is refused.
	AllowedLinks []string `json:"allowed_links,omitempty"`

	// OffHeapOutput: the client keeps large output off the Go heap
	// (machine.Command.OffHeapOutput); it is not sent.
	OffHeapOutput bool `json:"-"`
}

// Exit is how a command ended.
type Exit struct {
	Code            int  `json:"code"`
	TimedOut        bool `json:"timed_out,omitempty"`
	Killed          bool `json:"killed,omitempty"` // stopped by a kill request
	StdoutTruncated bool `json:"stdout_truncated,omitempty"`
	StderrTruncated bool `json:"stderr_truncated,omitempty"`
}

// Ack is the payload of an ok frame.
type Ack struct{}

// Failure kinds.
const (
	KindNotFound       = "not_found"
	KindPath           = "path"
	KindUnsupported    = "unsupported"
	KindLimit          = "limit"
	KindInfrastructure = "infrastructure"
	KindOther          = "other"
)

// Failure is the payload of a failure frame.
type Failure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
	Field   string `json:"field,omitempty"`
	Limit   int64  `json:"limit,omitempty"`
}

func (f *Failure) Error() string { return f.Message }

// failureOf turns an error into its wire form.
func failureOf(err error) *Failure {
	var (
		pe  *machine.PathError
		us  *machine.UnsupportedSpec
		lim *machine.DownloadLimitExceeded
		f   *Failure
	)
	switch {
	case errors.As(err, &f):
		return f
	case errors.As(err, &pe):
		kind := KindPath
		if pe.NotFound {
			kind = KindNotFound
		}
		return &Failure{Kind: kind, Message: pe.Reason, Path: pe.Path, Field: pe.Op}
	case errors.As(err, &us):
		return &Failure{Kind: KindUnsupported, Message: us.Reason, Field: us.Field}
	case errors.As(err, &lim):
		return &Failure{Kind: KindLimit, Message: err.Error(), Path: lim.Path, Limit: lim.Limit}
	}
	return &Failure{Kind: KindOther, Message: err.Error()}
}

// Err turns a wire failure back into the typed error of lib/machine.
func (f *Failure) Err(backend string) error {
	switch f.Kind {
	case KindNotFound:
		return &machine.PathError{Op: f.Field, Path: f.Path, Reason: f.Message, NotFound: true}
	case KindPath:
		return &machine.PathError{Op: f.Field, Path: f.Path, Reason: f.Message}
	case KindUnsupported:
		return &machine.UnsupportedSpec{Backend: backend, Field: f.Field, Reason: f.Message}
	case KindLimit:
		return &machine.DownloadLimitExceeded{Path: f.Path, Limit: f.Limit}
	case KindInfrastructure:
		return &machine.InfrastructureError{Op: f.Field, Err: errors.New(f.Message)}
	}
	return errors.New(f.Message)
}

// writeFrame writes one frame; w is usually buffered.
func writeFrame(w io.Writer, typ byte, payload []byte) error {
	var hdr [5]byte
	hdr[0] = typ
	binary.BigEndian.PutUint32(hdr[1:], uint32(len(payload)))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	if len(payload) > 0 {
		_, err := w.Write(payload)
		return err
	}
	return nil
}

// readFrame reads one frame into buf (grown as needed) and returns its type
// and payload, which aliases buf.
func readFrame(r *bufio.Reader, buf []byte) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if n > MaxFrame {
		return 0, nil, fmt.Errorf("execd: frame of %d bytes exceeds %d", n, MaxFrame)
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return hdr[0], buf, nil
}

// dataReader reads the payloads of D frames until a d frame.
type dataReader struct {
	r    *bufio.Reader
	buf  []byte
	rest []byte
	done bool
	err  error
}

func (d *dataReader) Read(p []byte) (int, error) {
	for len(d.rest) == 0 {
		if d.err != nil {
			return 0, d.err
		}
		if d.done {
			return 0, io.EOF
		}
		typ, payload, err := readFrame(d.r, d.buf)
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			d.err = err
			return 0, err
		}
		if cap(payload) > cap(d.buf) {
			d.buf = payload[:0]
		}
		switch typ {
		case FrameData:
			d.rest = payload
		case FrameDataEnd:
			d.done = true
		case FrameFailure:
			f := &Failure{}
			if jerr := jsonUnmarshal(payload, f); jerr != nil {
				f = &Failure{Kind: KindOther, Message: string(payload)}
			}
			d.err = f
		default:
			d.err = fmt.Errorf("execd: unexpected frame %q in a data stream", typ)
		}
	}
	n := copy(p, d.rest)
	d.rest = d.rest[n:]
	return n, nil
}

// drain reads up to the end of the data stream.
func (d *dataReader) drain() error {
	_, err := io.Copy(io.Discard, d)
	return err
}

// dataWriter sends writes as D frames.
type dataWriter struct {
	w io.Writer
}

func (d dataWriter) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		c := min(len(p), chunkSize)
		if err := writeFrame(d.w, FrameData, p[:c]); err != nil {
			return n, err
		}
		n += c
		p = p[c:]
	}
	return n, nil
}
