package execd

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// frames encodes (type, payload) pairs as the helper's wire frames.
func frames(t testing.TB, fs ...any) []byte {
	var b bytes.Buffer
	for i := 0; i < len(fs); i += 2 {
		if err := writeFrame(&b, fs[i].(byte), []byte(fs[i+1].(string))); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// FuzzReadFrame reads arbitrary bytes as a stream of frames, as the client
// reads what the sandbox's helper sends: every frame read must be exactly
// what its header announced (never over MaxFrame), a short stream must be
// an error, and the data stream and the final frame must fail cleanly.
func FuzzReadFrame(f *testing.F) {
	f.Add(frames(f, FrameData, "hello", FrameData, "\x00\xff", FrameDataEnd, "", FrameOK, `{}`))
	f.Add(frames(f, FrameFailure, `{"kind":"not_found","message":"gone","path":"/x"}`))
	f.Add(frames(f, FrameData, "x", FrameFailure, `not json`))
	f.Add(frames(f, FrameExit, `{"code":3}`, byte('Z'), ""))
	f.Add(frames(f, FrameData, "abc")[:6])                           // truncated payload
	f.Add([]byte{FrameData, 0xff, 0xff, 0xff, 0xff})                 // over MaxFrame
	f.Add([]byte{FrameData, 0x00, 0x10, 0x00, 0x00})                 // exactly MaxFrame, missing
	f.Add(append([]byte{FrameOK, 0, 0, 0, 4}, []byte(`null`)...))    // null ack
	f.Add(append([]byte{FrameFailure, 0, 0, 0, 2}, []byte(`[]`)...)) // wrong JSON type
	f.Fuzz(func(t *testing.T, data []byte) {
		// Frame by frame.
		br := bufio.NewReaderSize(bytes.NewReader(data), 16)
		rest := data
		var buf []byte
		for {
			typ, payload, err := readFrame(br, buf)
			if err != nil {
				if len(rest) >= 5 && binary.BigEndian.Uint32(rest[1:5]) <= MaxFrame && len(rest) >= 5+int(binary.BigEndian.Uint32(rest[1:5])) {
					t.Fatalf("a complete frame was refused: %v", err)
				}
				if len(rest) == 0 && err != io.EOF {
					t.Fatalf("a clean end: %v, want io.EOF", err)
				}
				if len(rest) > 0 && err == io.EOF {
					t.Fatal("a partial frame read as a clean end")
				}
				break
			}
			n := int(binary.BigEndian.Uint32(rest[1:5]))
			if typ != rest[0] || n > MaxFrame || !bytes.Equal(payload, rest[5:5+n]) {
				t.Fatalf("frame %q of %d bytes read as %q %q", rest[0], n, typ, payload)
			}
			rest = rest[5+n:]
			buf = payload[:0]
			// Whatever the helper says as a final frame is an Ack, a
			// *Failure or a *ConnError, never a panic.
			if _, err := decodeFinal(typ, payload); err != nil {
				var f *Failure
				var c *ConnError
				if !errors.As(err, &f) && !errors.As(err, &c) {
					t.Fatalf("decodeFinal: %T %v", err, err)
				}
				if f != nil {
					_ = f.Err("local")
				}
			}
		}
		// As a data stream: the bytes read are the D frames' payloads
		// up to the first d frame, or an error.
		d := &dataReader{r: bufio.NewReader(bytes.NewReader(data))}
		got, err := io.ReadAll(d)
		var w []byte
		rest, ended := data, false
		for len(rest) >= 5 && !ended {
			n := int(binary.BigEndian.Uint32(rest[1:5]))
			if n > MaxFrame || len(rest) < 5+n {
				break
			}
			switch rest[0] {
			case FrameData:
				w = append(w, rest[5:5+n]...)
			case FrameDataEnd:
				ended = true
			default:
				rest = nil
			}
			if rest != nil {
				rest = rest[5+n:]
			}
		}
		if ended && err != nil {
			t.Fatalf("a complete data stream: %v", err)
		}
		if !ended && err == nil {
			t.Fatal("a data stream without its end read as complete")
		}
		if !bytes.HasPrefix(w, got) || (ended && !bytes.Equal(got, w)) {
			t.Fatalf("data stream: got %q, frames carry %q", got, w)
		}
		// Once done, a data reader stays done.
		if n, err := d.Read(make([]byte, 1)); n != 0 || err == nil {
			t.Fatalf("read after the end: %d %v", n, err)
		}
	})
}

// FuzzFrameRoundTrip: any payload up to MaxFrame survives writeFrame and
// readFrame, and the data writer's chunks reassemble into its input.
func FuzzFrameRoundTrip(f *testing.F) {
	f.Add(byte('D'), []byte("payload"))
	f.Add(byte('X'), []byte{})
	f.Add(byte(0), bytes.Repeat([]byte{0xff}, 70_000))
	f.Fuzz(func(t *testing.T, typ byte, payload []byte) {
		var b bytes.Buffer
		if err := writeFrame(&b, typ, payload); err != nil {
			t.Fatal(err)
		}
		gt, gp, err := readFrame(bufio.NewReader(&b), nil)
		if err != nil || gt != typ || !bytes.Equal(gp, payload) {
			t.Fatalf("round trip: %q %q %v", gt, gp, err)
		}
		b.Reset()
		if _, err := (dataWriter{&b}).Write(payload); err != nil {
			t.Fatal(err)
		}
		writeFrame(&b, FrameDataEnd, nil)
		got, err := io.ReadAll(&dataReader{r: bufio.NewReader(&b)})
		if err != nil || !bytes.Equal(got, payload) {
			t.Fatalf("data stream round trip: %d bytes, %v", len(got), err)
		}
	})
}
