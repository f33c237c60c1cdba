package execd

import (
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// commandFiles are the standard streams of one command: the child's ends
// (in, out, err) and the helper's (inW, outR, errR).
type commandFiles struct {
	in, out, err    *os.File
	inW, outR, errR *os.File
}

// commandFiles makes pipes for a command, or a pseudo-terminal when
// req.TTY: then the terminal is all three of the child's streams, the
// master is both the helper's stdin writer and stdout reader, and stderr is
// an empty pipe.
func (s *server) commandFiles(req *Request) (*commandFiles, error) {
	f := &commandFiles{in: s.devNull}
	var err error
	defer func() {
		if err != nil {
			f.closeAll(s.devNull)
		}
	}()
	if f.errR, f.err, err = outputPipe(); err != nil {
		return nil, err
	}
	if req.TTY {
		var master, tty *os.File
		if master, tty, err = pty.Open(); err != nil {
			return nil, err
		}
		// Wide enough that the shell does not wrap echoed command lines.
		_ = pty.Setsize(master, &pty.Winsize{Rows: 50, Cols: 250})
		f.in, f.out, f.outR = tty, tty, master
		if req.Stdin {
			f.inW = master
		}
		f.err.Close() // the terminal is the child's stderr
		f.err = tty
		return f, nil
	}
	if f.outR, f.out, err = outputPipe(); err != nil {
		return nil, err
	}
	if req.Stdin {
		if f.in, f.inW, err = inputPipe(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// outputPipe makes a command's output pipe: the helper's read end is
// non-blocking, for the runtime's poller (read deadlines); the child's
// write end is a plain blocking descriptor that never meets the poller
// (os.Pipe would register both ends and then switch the child's back).
func outputPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	if err := unix.SetNonblock(p[0], true); err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return nil, nil, err
	}
	return os.NewFile(uintptr(p[0]), "pipe"), os.NewFile(uintptr(p[1]), "pipe"), nil
}

// inputPipe makes a command's stdin pipe: the helper's write end is the
// poller's, so that closing it ends a write blocked on a full pipe (a
// background job that holds stdin without reading must not hold up the
// connection that feeds it); the child's read end is a plain blocking
// descriptor.
func inputPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	if err := unix.SetNonblock(p[1], true); err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return nil, nil, err
	}
	return os.NewFile(uintptr(p[0]), "pipe"), os.NewFile(uintptr(p[1]), "pipe"), nil
}

// closeChildEnds closes the child's ends once it has them.
func (f *commandFiles) closeChildEnds(devNull *os.File) {
	for _, c := range uniqueFiles(f.in, f.out, f.err) {
		if c != devNull {
			c.Close()
		}
	}
}

func (f *commandFiles) closeAll(devNull *os.File) {
	f.closeChildEnds(devNull)
	for _, c := range uniqueFiles(f.inW, f.outR, f.errR) {
		if c != nil {
			c.Close()
		}
	}
}

func uniqueFiles(files ...*os.File) []*os.File {
	var out []*os.File
	for _, f := range files {
		if f == nil {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == f
		}
		if !dup {
			out = append(out, f)
		}
	}
	return out
}
