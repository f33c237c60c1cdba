package interp

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

func commandMessage(err error) string { return command.Message(err) }

// File is an open file object: a VFS file (content held in memory and
// written back on flush/close), or one of the standard streams.
type File struct {
	name    string
	path    string
	mode    string
	binary  bool
	closed  bool
	canR    bool
	canW    bool
	content []byte
	pos     int
	dirty   bool
	appendM bool
	out     io.Writer  // standard output streams
	in      *bufReader // standard input
	errors  string
}

// bufReader reads the command's stdin lazily.
type bufReader struct {
	r   io.Reader
	buf []byte
	eof bool
}

func newBufReader(r io.Reader) *bufReader { return &bufReader{r: r} }

func (b *bufReader) fill(in *Interp) bool {
	if b.eof || b.r == nil {
		return false
	}
	chunk := make([]byte, 32<<10)
	n, err := b.r.Read(chunk)
	if n > 0 {
		in.charge(int64(n / 64))
		in.mem.add(in, int64(n))
		b.buf = append(b.buf, chunk[:n]...)
	}
	if err != nil {
		if errors.Is(err, command.ErrStopped) {
			panic(stop{err})
		}
		b.eof = true
	}
	return n > 0 || !b.eof
}

// ReadLine returns the next line including its newline ("" at EOF).
func (b *bufReader) ReadLine(in *Interp) (string, error) {
	for {
		if i := bytes.IndexByte(b.buf, '\n'); i >= 0 {
			line := string(b.buf[:i+1])
			b.buf = b.buf[i+1:]
			return line, nil
		}
		if !b.fill(in) {
			line := string(b.buf)
			b.buf = nil
			if line == "" {
				return "", io.EOF
			}
			return line, nil
		}
	}
}

// ReadAll returns the rest of the input.
func (b *bufReader) ReadAll(in *Interp) string {
	for b.fill(in) {
	}
	s := string(b.buf)
	b.buf = nil
	return s
}

func (b *bufReader) ReadN(in *Interp, n int) string {
	for len(b.buf) < n && b.fill(in) {
	}
	if n > len(b.buf) {
		n = len(b.buf)
	}
	s := string(b.buf[:n])
	b.buf = b.buf[n:]
	return s
}

func (in *Interp) stdStream(name string) *File {
	switch name {
	case "stdin":
		return &File{name: "<stdin>", mode: "r", canR: true, in: in.Stdin}
	case "stderr":
		return &File{name: "<stderr>", mode: "w", canW: true, out: in.Stderr}
	}
	return &File{name: "<stdout>", mode: "w", canW: true, out: in.Stdout}
}

// sysStream is sys.stdout / sys.stderr / sys.stdin as currently set.
func (in *Interp) sysStream(name string) Value {
	if m, ok := in.modules["sys"]; ok {
		if v, ok := m.Dict.GetStr(name); ok && v != None {
			return v
		}
	}
	switch name {
	case "stdout":
		if in.stdoutF == nil {
			in.stdoutF = in.stdStream("stdout")
		}
		return in.stdoutF
	case "stderr":
		if in.stderrF == nil {
			in.stderrF = in.stdStream("stderr")
		}
		return in.stderrF
	}
	if in.stdinF == nil {
		in.stdinF = in.stdStream("stdin")
	}
	return in.stdinF
}

func (in *Interp) abs(p string) string { return command.Join(in.cwd, p) }

func (in *Interp) pathArg(v Value) string {
	switch x := v.(type) {
	case string:
		return x
	case Bytes:
		return string(x)
	case *Instance:
		if f := in.lookupClassAttr(x.Cls, "__fspath__"); f != nil {
			return in.pathArg(in.call(in.bindAttr(x, f, x.Cls), nil, nil))
		}
		if s, ok := x.Base.(string); ok {
			return s
		}
	}
	in.Raise("TypeError", "expected str, bytes or os.PathLike object, not %s", in.typeName(v))
	return ""
}

func (in *Interp) open(a []Value, kw []KW) Value {
	a = in.args("open", a, kw, []string{"file", "mode", "buffering", "encoding", "errors", "newline", "closefd", "opener"}, 1)
	if n, ok := a[0].(int64); ok {
		switch n {
		case 0:
			return in.sysStream("stdin")
		case 1:
			return in.sysStream("stdout")
		case 2:
			return in.sysStream("stderr")
		}
		in.Raise("OSError", "[Errno 9] Bad file descriptor")
	}
	name := in.pathArg(a[0])
	mode := "r"
	if a[1] != nil {
		mode = in.str(a[1])
	}
	f := &File{name: name, path: in.abs(name), mode: mode, binary: strings.Contains(mode, "b")}
	if a[4] != nil && a[4] != None {
		f.errors = in.str(a[4])
	}
	if a[3] != nil && a[3] != None {
		enc := strings.ToLower(strings.ReplaceAll(in.str(a[3]), "_", "-"))
		switch enc {
		case "utf-8", "utf8", "ascii", "latin-1", "latin1", "utf-8-sig":
		default:
			in.Raise("LookupError", "unknown encoding: %s", in.str(a[3]))
		}
	}
	plus := strings.Contains(mode, "+")
	fsys := in.inv.FS
	switch {
	case strings.Contains(mode, "r"):
		f.canR, f.canW = true, plus
		data := in.readFile(name)
		f.content = data
	case strings.Contains(mode, "w"):
		f.canW, f.canR = true, plus
		if err := fsys.WriteFile(f.path, nil, 0o644); err != nil {
			in.osError(err, name)
		}
	case strings.Contains(mode, "a"):
		f.canW, f.canR, f.appendM = true, plus, true
		data, err := fsys.ReadFile(f.path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			in.osError(err, name)
		}
		if err != nil {
			if err := fsys.WriteFile(f.path, nil, 0o644); err != nil {
				in.osError(err, name)
			}
		}
		f.content = data
		f.pos = len(data)
	case strings.Contains(mode, "x"):
		if _, err := fsys.Lstat(f.path); err == nil {
			in.osError(&fs.PathError{Op: "open", Path: f.path, Err: fs.ErrExist}, name)
		}
		f.canW, f.canR = true, plus
		if err := fsys.WriteFile(f.path, nil, 0o644); err != nil {
			in.osError(err, name)
		}
	default:
		in.Raise("ValueError", "invalid mode: '%s'", mode)
	}
	in.openFiles = append(in.openFiles, f)
	return f
}

func (in *Interp) readFile(name string) []byte {
	p := in.abs(name)
	fi, err := in.inv.FS.Stat(p)
	if err != nil {
		in.osError(err, name)
	}
	if fi.IsDir() {
		in.osError(&fs.PathError{Op: "open", Path: p, Err: command.ErrIsDir}, name)
	}
	in.mem.need(in, fi.Size)
	data, err := in.inv.FS.ReadFile(p)
	if err != nil {
		in.osError(err, name)
	}
	in.charge(int64(len(data) / 64))
	return data
}

func (in *Interp) flushFile(f *File) {
	if f.out != nil {
		return
	}
	if !f.dirty || f.path == "" {
		return
	}
	f.dirty = false
	in.charge(int64(len(f.content) / 64))
	if err := in.inv.FS.WriteFile(f.path, f.content, 0o644); err != nil {
		in.osError(err, f.name)
	}
}

func (in *Interp) closeFile(f *File) {
	if f.closed {
		return
	}
	in.flushFile(f)
	f.closed = true
	f.content = nil
}

// flushAll writes back every open file at exit, as CPython's finalizers do.
func (in *Interp) flushAll() {
	for _, f := range in.openFiles {
		if !f.closed {
			_ = in.catch(func() { in.flushFile(f) })
		}
	}
	in.openFiles = nil
}

func (in *Interp) fileWrite(f *File, v Value) Value {
	if f.closed {
		in.Raise("ValueError", "I/O operation on closed file.")
	}
	if !f.canW {
		in.Raise("OSError", "not writable")
	}
	var data string
	if f.binary {
		data = in.bytesOf(v)
	} else {
		s, ok := v.(string)
		if !ok {
			if x, ok2 := v.(*Instance); ok2 {
				s, ok = x.Base.(string)
			}
		}
		if !ok {
			in.Raise("TypeError", "write() argument must be str, not %s", in.typeName(v))
		}
		data = s
	}
	in.charge(int64(len(data)/64) + 1)
	if f.out != nil {
		if _, err := io.WriteString(f.out, data); err != nil {
			if errors.Is(err, command.ErrStopped) {
				panic(stop{err})
			}
			in.Raise("BrokenPipeError", "[Errno 32] Broken pipe")
		}
		if f.binary {
			return int64(len(data))
		}
		return int64(utf8.RuneCountInString(data))
	}
	in.mem.add(in, int64(len(data)))
	if f.appendM {
		f.pos = len(f.content)
	}
	end := f.pos + len(data)
	if end > len(f.content) {
		if end > cap(f.content) {
			nc := make([]byte, end, end*2)
			copy(nc, f.content)
			f.content = nc
		} else {
			f.content = f.content[:end]
		}
	}
	copy(f.content[f.pos:], data)
	f.pos = end
	f.dirty = true
	if f.binary {
		return int64(len(data))
	}
	return int64(utf8.RuneCountInString(data))
}

func (in *Interp) textOf(f *File, b []byte) Value {
	if f.binary {
		return Bytes(b)
	}
	s := string(b)
	if !utf8.ValidString(s) {
		var ev Value
		if f.errors != "" {
			ev = f.errors
		}
		s = in.decode(s, nil, ev)
	}
	if strings.Contains(s, "\r") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return s
}

func (in *Interp) fileRead(f *File, n int) Value {
	if f.closed {
		in.Raise("ValueError", "I/O operation on closed file.")
	}
	if !f.canR {
		in.Raise("OSError", "not readable")
	}
	if f.in != nil {
		var s string
		if n < 0 {
			s = f.in.ReadAll(in)
		} else {
			s = f.in.ReadN(in, n)
		}
		return in.textOf(f, []byte(s))
	}
	rest := f.content[min(f.pos, len(f.content)):]
	if n >= 0 && n < len(rest) {
		if !f.binary {
			// n counts characters
			i, cnt := 0, 0
			for i < len(rest) && cnt < n {
				_, w := utf8.DecodeRune(rest[i:])
				i += w
				cnt++
			}
			rest = rest[:i]
		} else {
			rest = rest[:n]
		}
	}
	f.pos += len(rest)
	return in.textOf(f, rest)
}

func (in *Interp) fileReadline(f *File, limit int) Value {
	if f.closed {
		in.Raise("ValueError", "I/O operation on closed file.")
	}
	if f.in != nil {
		line, _ := f.in.ReadLine(in)
		return in.textOf(f, []byte(line))
	}
	rest := f.content[min(f.pos, len(f.content)):]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		i = len(rest)
	} else {
		i++
	}
	if limit >= 0 && limit < i {
		i = limit
	}
	f.pos += i
	return in.textOf(f, rest[:i])
}

func (in *Interp) fileAttr(f *File, name string) (Value, bool) {
	b := func(fn func(a []Value, kw []KW) Value) (Value, bool) {
		return &Builtin{Name: name, Fn: func(in *Interp, a []Value, kw []KW) Value { return fn(a, kw) }}, true
	}
	switch name {
	case "name":
		return f.name, true
	case "mode":
		return f.mode, true
	case "closed":
		return f.closed, true
	case "encoding":
		return "utf-8", true
	case "buffer":
		nf := *f
		nf.binary = true
		return &nf, true
	case "write":
		return b(func(a []Value, kw []KW) Value { nargs(in, "write", a, 1, 1); return in.fileWrite(f, a[0]) })
	case "writelines":
		return b(func(a []Value, kw []KW) Value {
			for _, v := range in.iterToSlice(a[0]) {
				in.fileWrite(f, v)
			}
			return None
		})
	case "read":
		return b(func(a []Value, kw []KW) Value {
			n := -1
			if len(a) > 0 && a[0] != None {
				n = int(in.toInt64(a[0]))
			}
			return in.fileRead(f, n)
		})
	case "readline":
		return b(func(a []Value, kw []KW) Value {
			n := -1
			if len(a) > 0 && a[0] != None {
				n = int(in.toInt64(a[0]))
			}
			return in.fileReadline(f, n)
		})
	case "readlines":
		return b(func(a []Value, kw []KW) Value {
			var out []Value
			for {
				l := in.fileReadline(f, -1)
				if in.length(l) == 0 {
					break
				}
				out = append(out, l)
			}
			if out == nil {
				out = []Value{}
			}
			return &List{V: out}
		})
	case "close":
		return b(func(a []Value, kw []KW) Value { in.closeFile(f); return None })
	case "flush":
		return b(func(a []Value, kw []KW) Value { in.flushFile(f); return None })
	case "__enter__":
		return b(func(a []Value, kw []KW) Value { return f })
	case "__exit__":
		return b(func(a []Value, kw []KW) Value { in.closeFile(f); return None })
	case "__iter__":
		return b(func(a []Value, kw []KW) Value { return f })
	case "__next__":
		return b(func(a []Value, kw []KW) Value {
			v, ok := in.next(f)
			if !ok {
				in.RaiseArgs("StopIteration")
			}
			return v
		})
	case "seek":
		return b(func(a []Value, kw []KW) Value {
			off := int(in.toInt64(a[0]))
			whence := 0
			if len(a) > 1 {
				whence = int(in.toInt64(a[1]))
			}
			switch whence {
			case 1:
				off += f.pos
			case 2:
				off += len(f.content)
			}
			if off < 0 {
				in.Raise("ValueError", "negative seek position %d", off)
			}
			f.pos = off
			return int64(off)
		})
	case "tell":
		return b(func(a []Value, kw []KW) Value { return int64(f.pos) })
	case "truncate":
		return b(func(a []Value, kw []KW) Value {
			n := f.pos
			if len(a) > 0 && a[0] != None {
				n = int(in.toInt64(a[0]))
			}
			if n < len(f.content) {
				f.content = f.content[:n]
				f.dirty = true
			}
			return int64(n)
		})
	case "fileno":
		return b(func(a []Value, kw []KW) Value {
			switch f.name {
			case "<stdin>":
				return int64(0)
			case "<stdout>":
				return int64(1)
			case "<stderr>":
				return int64(2)
			}
			return int64(3 + len(in.openFiles))
		})
	case "isatty":
		return b(func(a []Value, kw []KW) Value { return false })
	case "readable":
		return b(func(a []Value, kw []KW) Value { return f.canR })
	case "writable":
		return b(func(a []Value, kw []KW) Value { return f.canW })
	case "seekable":
		return b(func(a []Value, kw []KW) Value { return f.out == nil && f.in == nil })
	case "reconfigure":
		return b(func(a []Value, kw []KW) Value { return None })
	}
	return nil, false
}

var _ = os.O_RDONLY
