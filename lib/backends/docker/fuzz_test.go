package docker

import (
	"bytes"
	"encoding/binary"
	"io"
	"strconv"
	"testing"
)

// mux encodes payloads as the Engine API's multiplexed attach stream, the
// stream id of each taken from ids in turn.
func mux(ids []byte, payloads ...[]byte) []byte {
	var b bytes.Buffer
	for i, p := range payloads {
		var hdr [8]byte
		hdr[0] = ids[i%len(ids)]
		binary.BigEndian.PutUint32(hdr[4:], uint32(len(p)))
		b.Write(hdr[:])
		b.Write(p)
	}
	return b.Bytes()
}

// FuzzDemux: arbitrary bytes from the daemon never panic and never yield
// more bytes than they hold; a well-formed stream splits exactly.
func FuzzDemux(f *testing.F) {
	f.Add(mux([]byte{1, 2}, []byte("out"), []byte("err")), []byte("a"), []byte("b"), byte(1))
	f.Add([]byte{9, 0, 0, 0, 0, 0, 0, 1, 'x'}, []byte{}, []byte("\x00\xff"), byte(2))
	f.Add([]byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 'x'}, []byte("x"), []byte{}, byte(3))
	f.Fuzz(func(t *testing.T, raw, a, b []byte, id byte) {
		var out, errb, sys bytes.Buffer
		_ = demux(bytes.NewReader(raw), &out, &errb, &sys, true)
		if out.Len()+errb.Len()+sys.Len() > len(raw) {
			t.Fatalf("%d bytes in, %d out", len(raw), out.Len()+errb.Len()+sys.Len())
		}
		ids := []byte{1, 2, id % 4}
		out.Reset()
		errb.Reset()
		sys.Reset()
		if err := demux(bytes.NewReader(mux(ids, a, b, a)), &out, &errb, &sys, true); err != nil {
			t.Fatal(err)
		}
		want := map[byte]*bytes.Buffer{0: {}, 1: {}, 2: {}, 3: {}}
		for i, p := range [][]byte{a, b, a} {
			want[ids[i]].Write(p)
		}
		if !bytes.Equal(out.Bytes(), append(want[0].Bytes(), want[1].Bytes()...)) && !bytes.Equal(out.Bytes(), append(want[1].Bytes(), want[0].Bytes()...)) ||
			!bytes.Equal(errb.Bytes(), want[2].Bytes()) || !bytes.Equal(sys.Bytes(), want[3].Bytes()) {
			t.Fatalf("split %q %q %q", out.Bytes(), errb.Bytes(), sys.Bytes())
		}
	})
}

const fuzzNonce = markerLead + "0123456789abcdef0123456789abcdef"

// feed writes stream to p in chunks whose sizes cycle through cuts.
func feed(p *stdoutParser, stream []byte, cuts []byte) {
	for i := 0; len(stream) > 0; i++ {
		n := len(stream)
		if len(cuts) > 0 {
			n = min(n, int(cuts[i%len(cuts)])+1)
		}
		if _, err := p.Write(stream[:n]); err != nil {
			return
		}
		stream = stream[n:]
	}
	_ = p.flush()
}

// FuzzStdoutParser: the wrapper's frame, the command's output and the end
// marker, cut anywhere, give back the output, the process group and the
// status; output the command wrote cannot forge either (it never holds the
// nonce); arbitrary bytes never panic.
func FuzzStdoutParser(f *testing.F) {
	f.Add([]byte("hello\n"), []byte{0, 3, 200}, uint32(42), int16(0), []byte("SHELLBOX_PGID:7\n"))
	f.Add([]byte("SHELLBOX_PGID:9\n\x1f0123"), []byte{1}, uint32(2), int16(137), []byte(fuzzNonce+":3\n"))
	f.Add([]byte{}, []byte{}, uint32(1<<31), int16(-1), []byte("Error response from daemon: no such exec"))
	f.Add([]byte("\x1f\x1f01234\x1f0123456789abcdef0123456789abcde"), []byte{4, 0}, uint32(99999), int16(255), []byte("SHELLBOX_PGID:\n"))
	f.Fuzz(func(t *testing.T, output, cuts []byte, pgid uint32, status int16, raw []byte) {
		// Arbitrary bytes.
		var out, rawOut bytes.Buffer
		p := newStdoutParser(fuzzNonce, &out, func(int) {})
		p.raw = &rawOut
		feed(p, raw, cuts)
		if out.Len()+rawOut.Len() > len(raw) {
			t.Fatalf("%d bytes in, %d out", len(raw), out.Len()+rawOut.Len())
		}
		p.markerStatus()

		// A well-formed stream.
		if bytes.Contains(output, []byte(fuzzNonce)) {
			return
		}
		pg := int(pgid%1_000_000) + 2
		stream := []byte(pgidPrefix + strconv.Itoa(pg) + "\n")
		stream = append(stream, output...)
		stream = append(stream, []byte(fuzzNonce+":"+strconv.Itoa(int(status))+"\n")...)
		stream = append(stream, raw...) // after the marker: ignored
		out.Reset()
		got := -1
		ne := &nonEmpty{w: &out}
		p = newStdoutParser(fuzzNonce, ne, func(g int) { got = g })
		feed(p, stream, cuts)
		if ne.empty {
			t.Fatal("the parser passed on an empty write (a pipe's reader sees it as a read of nothing)")
		}
		code, ok := p.markerStatus()
		if got != pg || !bytes.Equal(out.Bytes(), output) || !ok || code != int(status) || p.noFrame {
			t.Fatalf("pgid %d (want %d), output %q (want %q), status %d %v (want %d)", got, pg, out.Bytes(), output, code, ok, status)
		}
	})
}

// nonEmpty notes empty writes.
type nonEmpty struct {
	w     io.Writer
	empty bool
}

func (n *nonEmpty) Write(b []byte) (int, error) {
	n.empty = n.empty || len(b) == 0
	return n.w.Write(b)
}
