package relay

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Limits of the relay.
const (
	// MaxBody bounds a request's and a response's body (4 MiB).
	MaxBody = 4 << 20
	// MaxPending bounds the requests waiting for the handler at once.
	MaxPending = 16
	// maxHead bounds a frame's JSON head (method, path and query).
	maxHead = 64 << 10
)

// Frame types.
const (
	frameListening = 'L'
	frameRequest   = 'Q'
	frameCancel    = 'C'
	frameResponse  = 'S'
)

type frame struct {
	typ  byte
	id   uint32
	head []byte
	body []byte
}

type requestHead struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
}

type responseHead struct {
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
}

type listeningHead struct {
	Addr string `json:"addr"`
}

var errFrame = errors.New("malformed relay frame")

func writeFrame(w io.Writer, typ byte, id uint32, head any, body []byte) error {
	var h []byte
	if head != nil {
		var err error
		if h, err = json.Marshal(head); err != nil {
			return err
		}
	}
	// A small frame goes in one write (one message through the process
	// session); a large body is not copied.
	whole := len(body) <= 64<<10
	size := 13 + len(h)
	if whole {
		size += len(body)
	}
	buf := make([]byte, 13, size)
	buf[0] = typ
	binary.BigEndian.PutUint32(buf[1:], id)
	binary.BigEndian.PutUint32(buf[5:], uint32(4+len(h)+len(body)))
	binary.BigEndian.PutUint32(buf[9:], uint32(len(h)))
	buf = append(buf, h...)
	if whole {
		buf = append(buf, body...)
	}
	if _, err := w.Write(buf); err != nil {
		return err
	}
	if !whole {
		_, err := w.Write(body)
		return err
	}
	return nil
}

// readFrame reads one frame whose body is at most maxBody bytes; anything
// larger or inconsistent is errFrame, and the stream cannot be used after.
func readFrame(r io.Reader, maxBody int) (frame, error) {
	var hdr [13]byte
	if _, err := io.ReadFull(r, hdr[:9]); err != nil {
		return frame{}, err
	}
	f := frame{typ: hdr[0], id: binary.BigEndian.Uint32(hdr[1:])}
	n := binary.BigEndian.Uint32(hdr[5:])
	if n < 4 || n > uint32(4+maxHead+maxBody) {
		return frame{}, fmt.Errorf("%w: length %d", errFrame, n)
	}
	if _, err := io.ReadFull(r, hdr[9:13]); err != nil {
		return frame{}, unexpected(err)
	}
	hl := binary.BigEndian.Uint32(hdr[9:])
	if hl > maxHead || hl > n-4 || int(n-4-hl) > maxBody {
		return frame{}, fmt.Errorf("%w: head length %d of %d", errFrame, hl, n)
	}
	data := make([]byte, n-4)
	if _, err := io.ReadFull(r, data); err != nil {
		return frame{}, unexpected(err)
	}
	f.head, f.body = data[:hl], data[hl:]
	return f, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
