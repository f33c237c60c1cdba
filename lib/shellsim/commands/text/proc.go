package text

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// baseCost is the fixed fuel charged per command run.
const baseCost = 50

// errStop marks a read that failed because the process must stop (fuel or
// memory exhausted); commands return at once without a diagnostic.
var errStop = errors.New("stopped")

// proc is one run of a text command: buffered stdout, metering and the
// GNU-style diagnostics shared by every command in this package.
type proc struct {
	*command.Invocation
	name  string
	out   *bufio.Writer
	stop  bool // a Charge, Reserve or stdout write failed: stop now
	rels  []func()
	usage int // exit status for usage errors (1 for coreutils, 2 for grep/sort)
	// status is what a command returns when parse reports !ok: the usage
	// status, or 0 after --help or --version.
	status int
}

func newProc(inv *command.Invocation, usageStatus int) *proc {
	p := &proc{Invocation: inv, name: path.Base(inv.Args[0]), usage: usageStatus}
	p.out = bufio.NewWriterSize(inv.Stdout, 8192)
	p.charge(baseCost)
	return p
}

// exit flushes output, releases reserved memory and returns the status
// (1 if the process was stopped; the executor overrides it anyway).
func (p *proc) exit(status int) int {
	if !p.stop {
		if err := p.out.Flush(); err != nil {
			p.stop = true
		}
	}
	// A full disk is reported as GNU tools do; a closed pipe is not.
	if _, err := p.out.Write(nil); errors.Is(err, command.ErrNoSpace) {
		fmt.Fprintf(p.Stderr, "%s: write error: %s\n", p.name, command.Message(err))
	}
	for _, r := range p.rels {
		r()
	}
	p.rels = nil
	if p.stop {
		return 1
	}
	return status
}

func (p *proc) charge(n int64) bool {
	if p.stop {
		return false
	}
	if err := p.Sys.Charge(n); err != nil {
		p.stop = true
	}
	return !p.stop
}

// errNoFuel stops a backtracking regexp match when the process ran out
// of fuel.
var errNoFuel = errors.New("out of fuel")

// fuel charges a backtracking regexp match's steps, a quarter unit each
// (posixre.Options.Fuel).
func (p *proc) fuel(n int64) error {
	if !p.charge(n / 4) {
		return errNoFuel
	}
	return nil
}

// regexFailed reports a match a regexp gave up on: quietly when the fuel
// ran out, as an error when the pattern was too complex to finish.
func (p *proc) regexFailed(re *posixre.Regexp) bool {
	if re == nil || re.Err() == nil {
		return false
	}
	if !errors.Is(re.Err(), errNoFuel) {
		p.warn("%s", re.Err())
	}
	return true
}

// reserve models n bytes of held memory until exit.
func (p *proc) reserve(n int64) bool {
	if p.stop {
		return false
	}
	if n <= 0 {
		return true
	}
	rel, err := p.Sys.Reserve(n)
	if err != nil {
		p.stop = true
		return false
	}
	p.rels = append(p.rels, rel)
	return true
}

func (p *proc) write(b []byte) bool {
	if p.stop {
		return false
	}
	if _, err := p.out.Write(b); err != nil {
		p.stop = true
	}
	return !p.stop
}

func (p *proc) writeString(s string) bool {
	if p.stop {
		return false
	}
	if _, err := p.out.WriteString(s); err != nil {
		p.stop = true
	}
	return !p.stop
}

func (p *proc) flush() bool {
	if p.stop {
		return false
	}
	if err := p.out.Flush(); err != nil {
		p.stop = true
	}
	return !p.stop
}

// warn prints "name: msg" on stderr, after flushing stdout so the two
// streams interleave as an unbuffered terminal would show them.
func (p *proc) warn(format string, args ...any) {
	p.flush()
	fmt.Fprintf(p.Stderr, "%s: %s\n", p.name, p.localize(fmt.Sprintf(format, args...)))
}

// fileErr prints "name: file: message" for a filesystem error.
func (p *proc) fileErr(file string, err error) {
	p.warn("%s: %s", file, command.Message(err))
}

// usageErr prints a diagnostic plus glibc's "Try ... --help" line and
// returns the command's usage status.
func (p *proc) usageErr(format string, args ...any) int {
	if format != "" {
		p.warn(format, args...)
	}
	fmt.Fprintf(p.Stderr, "Try '%s --help' for more information.\n", p.name)
	return p.exit(p.usage)
}

// parse parses the command line with the shared GNU option parser and
// reports a usage error itself (recording an unknown option as a Partial
// gap, as getopt.Parse does); ok is false then, and the command returns
// p.status. --help and --version (spec.Long must list them) are answered
// here, in command-line order as coreutils' getopt loops do: one before a
// mistake wins, one after it or in an option's argument does not.
func (p *proc) parse(spec *getopt.Spec) ([]getopt.Opt, []string, bool) {
	opts, operands, err := spec.Scan(p.Args[1:])
	for _, o := range opts {
		if o.Name == "help" || o.Name == "version" {
			p.status = p.helpOrVersion("--" + o.Name)
			return nil, nil, false
		}
	}
	if err != nil {
		if err.Unknown != "" {
			p.Sys.Partial(p.name + " " + err.Unknown)
		}
		p.status = p.usageErr("%s", err.Msg)
		return nil, nil, false
	}
	return opts, operands, true
}

// partial records a knowingly unsupported feature and fails like a usage
// error.
func (p *proc) partial(feature, why string) int {
	p.Sys.Partial(feature)
	p.warn("%s", why)
	return p.exit(p.usage)
}

// meter charges fuel for every byte read through it.
type meter struct {
	p *proc
	r io.Reader
}

func (m *meter) Read(b []byte) (int, error) {
	n, err := m.r.Read(b)
	if n > 0 && !m.p.charge(int64(n)) {
		return 0, errStop
	}
	return n, err
}

// open returns a metered reader for a file operand ("-" is stdin).
func (p *proc) open(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(&meter{p, p.Stdin}), nil
	}
	abs := p.Abs(name)
	fi, err := p.FS.Stat(abs)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, command.ErrIsDir
	}
	f, err := p.FS.Open(abs)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{&meter{p, f}, f}, nil
}

// readAll reads a whole operand, reserving memory for what it holds.
func (p *proc) readAll(name string) ([]byte, error) {
	r, err := p.open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return p.slurp(r)
}

func (p *proc) slurp(r io.Reader) ([]byte, error) {
	var buf []byte
	release := func() {}
	defer func() { p.rels = append(p.rels, release) }()
	chunk := make([]byte, 32*1024)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			if need := len(buf) + n; need > cap(buf) {
				// Reserved before it is allocated; the old buffer stays
				// reserved until its contents are copied.
				newCap := max(need+need/4, 512)
				if p.stop {
					return nil, errStop
				}
				rel, rerr := p.Sys.Reserve(int64(newCap))
				if rerr != nil {
					p.stop = true
					return nil, errStop
				}
				nb := make([]byte, len(buf), newCap)
				copy(nb, buf)
				release()
				buf, release = nb, rel
			}
			buf = append(buf, chunk[:n]...)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// lines splits data into records after reserving their headers (a slice
// header each, as GNU sort reserves line headers); false when memory is out.
func (p *proc) lines(data []byte, delim byte) ([][]byte, bool) {
	n := bytes.Count(data, []byte{delim}) + 1
	if !p.reserve(24 * int64(n)) {
		return nil, false
	}
	lines := make([][]byte, 0, n)
	for len(data) > 0 {
		i := bytes.IndexByte(data, delim)
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i])
		data = data[i+1:]
	}
	return lines, true
}

// lineReader yields delimiter-terminated records, the last one possibly
// unterminated.
type lineReader struct {
	r     *bufio.Reader
	delim byte
	buf   []byte
}

func newLineReader(r io.Reader, delim byte) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 16*1024), delim: delim}
}

// next returns the next record including its delimiter (if present); the
// slice is valid until the following call. At the end it returns io.EOF.
func (l *lineReader) next() ([]byte, error) {
	line, err := l.r.ReadSlice(l.delim)
	if err == nil {
		return line, nil
	}
	if err == bufio.ErrBufferFull {
		l.buf = append(l.buf[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = l.r.ReadSlice(l.delim)
			l.buf = append(l.buf, line...)
		}
		if err == io.EOF && len(l.buf) > 0 {
			return l.buf, nil
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		return l.buf, err
	}
	if err == io.EOF && len(line) > 0 {
		return line, nil
	}
	return nil, err
}

// splitLines splits data into records without their delimiters; a final
// unterminated record counts as a line.
func splitLines(data []byte, delim byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := indexByte(data, delim)
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i])
		data = data[i+1:]
	}
	return lines
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// operands returns the file operands, defaulting to stdin.
func defaultStdin(files []string) []string {
	if len(files) == 0 {
		return []string{"-"}
	}
	return files
}

// quote renders s the way coreutils' quote() does in diagnostics: 'x' in
// the C locale, ‘x’ in a UTF-8 one. It leaves markers that warn (and
// errLines) turn into the right quotes for the invocation's locale.
func quote(s string) string { return "\uE000" + s + "\uE001" }

// qfile quotes a file name as quoteaf() does: ASCII quotes in any locale.
func qfile(s string) string { return "'" + s + "'" }

// localize turns quote markers into the locale's quotation marks.
func (p *proc) localize(s string) string {
	open, close := "'", "'"
	if utf8Locale(p.Env) {
		open, close = "\u2018", "\u2019"
	}
	return strings.NewReplacer("\uE000", open, "\uE001", close).Replace(s)
}

// errLines prints extra diagnostic lines (such as argmatch's list of
// valid arguments) with localized quotes.
func (p *proc) errLines(s string) {
	fmt.Fprint(p.Stderr, p.localize(s))
}

// peakMem reserves memory for a buffer that grows and shrinks: only a new
// peak is reserved, and everything is released at exit.
type peakMem struct{ held, peak int64 }

func (m *peakMem) add(p *proc, n int64) bool {
	m.held += n
	if m.held > m.peak {
		if !p.reserve(m.held - m.peak) {
			return false
		}
		m.peak = m.held
	}
	return true
}
