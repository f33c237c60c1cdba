package digest

import (
	"errors"
	"io"
	"io/fs"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// launchCost is the fixed fuel charged per run.
const launchCost = 50

var errStop = errors.New("stop")

// open opens an operand for reading; "-" is standard input. A directory
// fails with "Is a directory" as in GNU tools.
func open(inv *command.Invocation, name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(inv.Stdin), nil
	}
	p := inv.Abs(name)
	fi, err := inv.FS.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: p, Err: command.ErrIsDir}
	}
	return inv.FS.Open(p)
}

// readAll reads r, charging a unit per byte and reserving what it holds.
// errStop means the process must stop; other errors are read errors.
func readAll(inv *command.Invocation, r io.Reader) ([]byte, func(), error) {
	var data []byte
	release := func() {}
	buf := make([]byte, 32*1024)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if inv.Sys.Charge(int64(n)) != nil {
				release()
				return nil, func() {}, errStop
			}
			rel, rerr := inv.Sys.Reserve(int64(n))
			prev := release
			release = func() { prev(); rel() }
			if rerr != nil {
				release()
				return nil, func() {}, errStop
			}
			data = append(data, buf[:n]...)
		}
		if err == io.EOF {
			return data, release, nil
		}
		if err != nil {
			release()
			return nil, func() {}, err
		}
	}
}

// stream feeds r into w chunk by chunk, charging per byte.
func stream(inv *command.Invocation, r io.Reader, w io.Writer) error {
	buf := make([]byte, 32*1024)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if inv.Sys.Charge(int64(n)) != nil {
				return errStop
			}
			w.Write(buf[:n])
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
