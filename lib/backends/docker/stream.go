package docker

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/shellbox/shellbox/lib/machine"
)

// Stream ids of the Engine API's multiplexed attach stream (Tty=false).
const (
	streamStdin  = 0
	streamStdout = 1
	streamStderr = 2
	streamSystem = 3
)

// errStreamDone stops demultiplexing once the wrapper's end marker arrived.
var errStreamDone = errors.New("end marker reached")

// demux splits a multiplexed attach stream into stdout and stderr with one
// fixed buffer, so memory stays bounded whatever the command prints. A
// writer returning errStreamDone is done: with untilBoth, demux returns
// once stdout and stderr are both done, otherwise at the first.
func demux(r io.Reader, stdout, stderr, system io.Writer, untilBoth bool) error {
	var hdr [8]byte
	buf := make([]byte, 32<<10)
	var outDone, errDone bool
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		var w io.Writer
		var done *bool
		switch hdr[0] {
		case streamStdin, streamStdout:
			w, done = stdout, &outDone
		case streamStderr:
			w, done = stderr, &errDone
		case streamSystem:
			w = system
		default:
			return fmt.Errorf("docker: unknown attach stream id %d", hdr[0])
		}
		size := int64(binary.BigEndian.Uint32(hdr[4:]))
		for size > 0 {
			n := int64(len(buf))
			if size < n {
				n = size
			}
			m, err := io.ReadFull(r, buf[:n])
			size -= int64(m)
			if m > 0 && (done == nil || !*done) {
				if _, werr := w.Write(buf[:m]); werr != nil {
					if werr != errStreamDone {
						return werr
					}
					*done = true
					if !untilBoth || (outDone && errDone) {
						return nil
					}
				}
			}
			if err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return err
			}
		}
	}
}

// limitedBuffer keeps the first limit bytes written to it and counts the
// rest as truncated. A command's output goes to a machine.Output instead
// (set by execution.configure): written once, straight from the stream,
// and off the Go heap when the caller asked for it.
type limitedBuffer struct {
	limit     int
	buf       []byte
	truncated bool
	out       *machine.Output
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.out != nil {
		return b.out.Write(p)
	}
	room := b.limit - len(b.buf)
	if room > 0 {
		if len(p) <= room {
			b.buf = append(b.buf, p...)
			return len(p), nil
		}
		b.buf = append(b.buf, p[:room]...)
	}
	if len(p) > 0 {
		b.truncated = true
	}
	return len(p), nil
}

func (b *limitedBuffer) bytes() []byte {
	if b.out != nil {
		if out := b.out.Bytes(); out != nil {
			return out
		}
		return []byte{}
	}
	if b.buf == nil {
		return []byte{}
	}
	return b.buf
}

func (b *limitedBuffer) isTruncated() bool {
	if b.out != nil {
		return b.out.Truncated()
	}
	return b.truncated
}

// free returns an off-heap output's memory (see machine.Output.Free).
func (b *limitedBuffer) free() {
	if b.out != nil {
		b.out.Free()
	}
}

// pgidPrefix starts the line the wrapper prints before the command runs.
const pgidPrefix = "SHELLBOX_PGID:"

// maxFrame bounds the wrapper's first line.
const maxFrame = 64

// stdoutParser reads the wrapper's protocol around the command's stdout:
// the first line is the process-group frame, then command output follows
// until the end marker (the per-run nonce the wrapper prints after the
// command exited). A command cannot forge the frame, which precedes its
// first byte, nor the marker, whose nonce it never sees.
type stdoutParser struct {
	nonce  []byte
	out    io.Writer
	onPGID func(int)
	// raw receives what came in place of a frame: the daemon writes exec
	// start errors to stdout.
	raw     io.Writer
	rawMode bool

	framed  bool
	head    []byte // frame bytes so far
	pending []byte // tail that may start a marker
	scratch []byte
	marked  bool   // the marker was seen
	done    bool   // the marker and its status line were seen
	status  []byte // bytes after the marker: ":<status>\n"
	noFrame bool   // the marker came where the frame should have been
}

func newStdoutParser(nonce string, out io.Writer, onPGID func(int)) *stdoutParser {
	return &stdoutParser{nonce: []byte(nonce), out: out, onPGID: onPGID}
}

func (p *stdoutParser) Write(b []byte) (int, error) {
	n := len(b)
	if p.done {
		return n, errStreamDone
	}
	if p.marked {
		return n, p.addStatus(b)
	}
	if p.rawMode {
		_, err := p.raw.Write(b)
		return n, err
	}
	if !p.framed {
		p.head = append(p.head, b...)
		if bytes.HasPrefix(p.head, p.nonce) {
			// The wrapper ended before the command started.
			p.framed, p.noFrame = true, true
			b, p.head = p.head, nil
			return n, p.scan(b)
		}
		if len(p.head) < len(p.nonce) && bytes.HasPrefix(p.nonce, p.head) {
			return n, nil // may still become the marker
		}
		i := bytes.IndexByte(p.head, '\n')
		if i < 0 {
			if len(p.head) > maxFrame || !bytes.HasPrefix([]byte(pgidPrefix), p.head[:min(len(p.head), len(pgidPrefix))]) {
				return n, p.toRaw()
			}
			return n, nil
		}
		line := p.head[:i]
		pgid, err := parseFrame(line)
		if err != nil {
			return n, p.toRaw()
		}
		p.framed = true
		p.onPGID(pgid)
		b, p.head = p.head[i+1:], nil
	}
	return n, p.scan(b)
}

// toRaw gives up on the frame: everything goes to raw from now on.
func (p *stdoutParser) toRaw() error {
	p.rawMode = true
	if p.raw == nil {
		p.raw = io.Discard
	}
	head := p.head
	p.head = nil
	_, err := p.raw.Write(head)
	return err
}

// scan passes b on to out up to the end marker.
func (p *stdoutParser) scan(b []byte) error {
	data := b
	if len(p.pending) > 0 {
		p.scratch = append(append(p.scratch[:0], p.pending...), b...)
		data = p.scratch
	}
	if i := bytes.Index(data, p.nonce); i >= 0 {
		if err := p.emit(data[:i]); err != nil {
			return err
		}
		p.marked = true
		p.pending = nil
		return p.addStatus(data[i+len(p.nonce):])
	}
	// Hold back only a tail that could start the marker, so interactive
	// output is never delayed (the marker starts with an RS byte).
	keep := 0
	for k := min(len(p.nonce)-1, len(data)); k > 0; k-- {
		if bytes.HasSuffix(data, p.nonce[:k]) {
			keep = k
			break
		}
	}
	if err := p.emit(data[:len(data)-keep]); err != nil {
		return err
	}
	p.pending = append(p.pending[:0], data[len(data)-keep:]...)
	return nil
}

// emit passes output on, never as an empty write: through a pipe, an empty
// write reaches the reader as a read of nothing, which callers across the
// C ABI take for the end of the stream.
func (p *stdoutParser) emit(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := p.out.Write(b)
	return err
}

// addStatus collects the ":<status>\n" after the marker; the stream is
// done at its newline (or when it is implausibly long).
func (p *stdoutParser) addStatus(b []byte) error {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
		p.done = true
	}
	room := 24 - len(p.status)
	p.status = append(p.status, b[:min(len(b), max(room, 0))]...)
	if len(p.status) >= 24 {
		p.done = true
	}
	if p.done {
		return errStreamDone
	}
	return nil
}

// flush passes on what was held back when the stream ended without marker.
func (p *stdoutParser) flush() error {
	if len(p.pending) > 0 {
		_, err := p.out.Write(p.pending)
		p.pending = nil
		return err
	}
	return nil
}

// markerStatus is the exit status the wrapper printed after the marker.
func (p *stdoutParser) markerStatus() (int, bool) {
	s := p.status
	if len(s) < 2 || s[0] != ':' {
		return 0, false
	}
	end := bytes.IndexByte(s, '\n')
	if end < 0 {
		return 0, false
	}
	code, err := strconv.Atoi(string(s[1:end]))
	return code, err == nil
}

func parseFrame(line []byte) (int, error) {
	if !bytes.HasPrefix(line, []byte(pgidPrefix)) {
		return 0, fmt.Errorf("docker: malformed process-group frame %q", truncate(line, maxFrame))
	}
	digits := line[len(pgidPrefix):]
	if len(digits) == 0 || len(digits) > 10 {
		return 0, fmt.Errorf("docker: malformed process-group frame %q", truncate(line, maxFrame))
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("docker: malformed process-group frame %q", truncate(line, maxFrame))
		}
	}
	pgid, err := strconv.Atoi(string(digits))
	if err != nil || pgid <= 1 {
		return 0, fmt.Errorf("docker: invalid process group %q", digits)
	}
	return pgid, nil
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
