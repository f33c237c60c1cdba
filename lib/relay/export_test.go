package relay

import (
	"bytes"
	"encoding/binary"
	"io"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// SetGuestProgram makes Serve place path in the machine instead of
// shellbox-relay, until the returned function restores it.
func SetGuestProgram(path string) (restore func()) {
	old := guestProgram
	guestProgram = func() (string, error) { return path, nil }
	return func() { guestProgram = old }
}

// Frame encodes one frame as the guest program writes it.
func Frame(typ byte, id uint32, head string, body []byte) []byte {
	b := []byte{typ, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], id)
	binary.BigEndian.PutUint32(b[5:], uint32(4+len(head)+len(body)))
	binary.BigEndian.PutUint32(b[9:], uint32(len(head)))
	return append(append(b, head...), body...)
}

// ParseFrames reads frames from data until an error, as the host does.
func ParseFrames(data []byte) int {
	r := bytesReader(data)
	n := 0
	for {
		if _, err := readFrame(r, MaxBody); err != nil {
			return n
		}
		n++
	}
}

// Answer is one request to a virtual relay, as curl in the machine makes it.
func (v *Virtual) Answer(method, url string, body []byte) (int, string, []byte) {
	return v.serve(method, url, body)
}
