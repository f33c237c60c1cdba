package awk

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// outStream is a redirection target: a file in the VFS, standard error,
// or a command whose input is collected until it is closed.
type outStream struct {
	kind byte // 'f' file, 'o' stdout, 'e' stderr, 'p' pipe
	f    command.File
	buf  bytes.Buffer
	cmd  string
}

func (o *outStream) write(m *interp, s string) {
	switch o.kind {
	case 'o':
		m.writeStdout(s)
	case 'e':
		m.flushStdout()
		if _, err := m.inv.Stderr.Write([]byte(s)); err != nil {
			panic(stopError{})
		}
	case 'p':
		o.buf.WriteString(s)
		m.grow(int64(len(s)))
	case 'f':
		if _, err := o.f.Write([]byte(s)); err != nil {
			m.fatal("can't write to `%s' (%s)", o.cmd, command.Message(err))
		}
	}
}

func (m *interp) output(redir tok, dest string) *outStream {
	if o, ok := m.outputs[dest]; ok {
		return o
	}
	o := &outStream{cmd: dest}
	switch {
	case redir == tPipe:
		o.kind = 'p'
	case dest == "/dev/stdout" || dest == "-":
		o.kind = 'o'
	case dest == "/dev/stderr":
		o.kind = 'e'
	default:
		o.kind = 'f'
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if redir == tAppend {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := m.inv.FS.OpenFile(m.inv.Abs(dest), flag, 0o644)
		if err != nil {
			m.fatal("can't redirect to `%s' (%s)", dest, command.Message(err))
		}
		o.f = f
	}
	m.outputs[dest] = o
	return o
}

// runPipe feeds a pipe's collected input to its command.
func (m *interp) runPipe(o *outStream) int {
	m.flushStdout()
	st, err := m.inv.Sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", o.cmd},
		Stdin: bytes.NewReader(o.buf.Bytes()), Stdout: m.inv.Stdout, Stderr: m.inv.Stderr})
	m.execErr(err)
	o.buf.Reset()
	return st
}

func (m *interp) system(cmd string) int {
	m.flushStdout()
	st, err := m.inv.Sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", cmd},
		Stdin: m.stdin, Stdout: m.inv.Stdout, Stderr: m.inv.Stderr})
	m.execErr(err)
	return st
}

// execErr stops when a child's error means this process must stop; a
// missing command or a timeout just leaves its status.
func (m *interp) execErr(err error) {
	if err != nil && errors.Is(err, command.ErrStopped) {
		panic(stopError{})
	}
}

// inStream is a getline source: a file or a command's output.
type inStream struct {
	rr *recordReader
	f  command.File
}

func (m *interp) close(name string) int {
	status := -1
	if o, ok := m.outputs[name]; ok {
		delete(m.outputs, name)
		status = 0
		switch o.kind {
		case 'p':
			status = m.runPipe(o)
		case 'f':
			if err := o.f.Close(); err != nil {
				status = -1
			}
		}
	}
	if in, ok := m.inputs[name]; ok {
		delete(m.inputs, name)
		if in.f != nil {
			in.f.Close()
		}
		status = 0
	}
	return status
}

func (m *interp) closeAll() {
	names := make([]string, 0, len(m.outputs))
	for name := range m.outputs {
		names = append(names, name)
	}
	// deterministic order: files and pipes in name order
	sortStrings(names)
	for _, name := range names {
		m.close(name)
	}
	for name, in := range m.inputs {
		if in.f != nil {
			in.f.Close()
		}
		delete(m.inputs, name)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// getline implements all getline forms; it returns 1, 0 at end of input
// or -1 when the source cannot be opened.
func (m *interp) getline(e *getlineExpr) value {
	var rec string
	var ok bool
	switch e.kind {
	case 0:
		if m.inEnd && m.mainDone {
			return num(0)
		}
		rec, ok = m.nextMain()
		if !ok {
			return num(0)
		}
		m.setSpecial(vNR, num(m.globals[vNR].v.num()+1))
		m.setSpecial(vFNR, num(m.globals[vFNR].v.num()+1))
	case tLT:
		name := m.toStr(m.eval(e.src))
		in, good := m.inputs[name]
		if !good {
			if name == "-" || name == "/dev/stdin" {
				in = &inStream{rr: newRecordReader(m.stdin)}
			} else {
				f, err := m.inv.FS.Open(m.inv.Abs(name))
				if err != nil {
					m.setErrno(command.Message(err))
					return num(-1)
				}
				if fi, err := f.Stat(); err == nil && fi.IsDir() {
					f.Close()
					m.setErrno("Is a directory")
					return num(-1)
				}
				in = &inStream{rr: newRecordReader(f), f: f}
			}
			m.inputs[name] = in
		}
		rec, ok = m.nextRecord(in.rr)
		if !ok {
			return num(0)
		}
	case tPipe:
		cmd := m.toStr(m.eval(e.src))
		in, good := m.inputs[cmd]
		if !good {
			m.flushStdout()
			var out bytes.Buffer
			_, err := m.inv.Sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", cmd},
				Stdin: strings.NewReader(""), Stdout: &out, Stderr: m.inv.Stderr})
			m.execErr(err)
			m.grow(int64(out.Len()))
			in = &inStream{rr: &recordReader{r: bufio.NewReader(&out)}}
			m.inputs[cmd] = in
		}
		rec, ok = m.nextRecord(in.rr)
		if !ok {
			return num(0)
		}
		m.setSpecial(vNR, num(m.globals[vNR].v.num()+1))
	}
	if e.lv == nil {
		m.setRecord(rec)
	} else {
		m.store(e.lv, strnum(rec))
	}
	return num(1)
}

// setErrno records a getline failure in gawk's ERRNO, if the program
// mentions it.
func (m *interp) setErrno(msg string) {
	if idx, ok := m.prog.globals["ERRNO"]; ok {
		m.globals[idx].v = str(msg)
	}
}
