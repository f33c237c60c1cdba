package text

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// split - split a file into pieces
//
//	split [-l N | -b SIZE | -C SIZE | -n CHUNKS] [-a LEN] [-d | -x]
//	      [--numeric-suffixes[=FROM]] [--additional-suffix=SUF] [-e]
//	      [-t SEP] [--verbose] [FILE [PREFIX]]
//
// CHUNKS is N, K/N, l/N, l/K/N, r/N or r/K/N. Without -a the suffix grows
// as GNU's does (xyz is followed by xzaaa). --filter=COMMAND runs
// "sh -c COMMAND" per piece with the piece on its standard input and
// $FILE set to the name the piece would have had.

var splitSpec = getopt.Spec{
	Short: "a:b:C:del:n:t:ux",
	Long: []getopt.Long{
		{"bytes=", "b"}, {"lines=", "l"}, {"line-bytes=", "C"}, {"number=", "n"},
		{"elide-empty-files", "e"}, {"unbuffered", "u"}, {"suffix-length=", "a"},
		{"additional-suffix=", "additional-suffix"}, {"numeric-suffixes", "d"},
		{"numeric-suffixes=", "d"}, {"hex-suffixes", "x"}, {"hex-suffixes=", "x"},
		{"filter=", "filter"}, {"verbose", "verbose"}, {"separator=", "t"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder: true,
}

type splitter struct {
	*proc
	prefix, extra string
	alphabet      string
	digits        []int
	auto          bool
	started       bool
	verbose       bool
	cur           command.File
	curName       string
	filter        string
	piece         bytes.Buffer // the current piece, with --filter
	failed        bool
	filterStatus  int
}

// nextName advances the suffix, GNU style, and returns the file name.
func (s *splitter) nextName() (string, bool) {
	if s.started {
		i := len(s.digits) - 1
		for ; i >= 0; i-- {
			s.digits[i]++
			if s.auto && i == 0 && s.digits[0] == len(s.alphabet)-1 {
				// Widen: the last letter joins the prefix.
				s.prefix += s.alphabet[len(s.alphabet)-1:]
				s.digits = make([]int, len(s.digits)+1)
				break
			}
			if s.digits[i] < len(s.alphabet) {
				break
			}
			s.digits[i] = 0
		}
		if i < 0 {
			return "", false
		}
	}
	s.started = true
	var b strings.Builder
	b.WriteString(s.prefix)
	for _, d := range s.digits {
		b.WriteByte(s.alphabet[d])
	}
	b.WriteString(s.extra)
	return b.String(), true
}

// open closes the current piece and creates the next.
func (s *splitter) open() bool {
	s.closeCur()
	name, ok := s.nextName()
	if !ok {
		s.warn("output file suffixes exhausted")
		return false
	}
	if s.verbose {
		s.writeString("creating file " + qfile(name) + "\n")
	}
	if s.filter != "" {
		s.curName = name
		s.cur = filterPiece{}
		return true
	}
	f, err := s.FS.OpenFile(s.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		s.fileErr(name, err)
		return false
	}
	s.cur, s.curName = f, name
	return true
}

func (s *splitter) closeCur() {
	if s.cur == nil {
		return
	}
	s.cur = nil
	if s.filter == "" {
		return
	}
	// Run the filter on the finished piece.
	s.flush()
	env := append(s.Env.Environ(), "FILE="+s.curName)
	st, err := s.Sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", s.filter}, Env: env,
		Stdin: bytes.NewReader(s.piece.Bytes()), Stdout: s.Stdout, Stderr: s.Stderr})
	s.piece.Reset()
	switch {
	case err != nil:
		s.warn("%s", err)
		s.failed = true
	case st != 0 && !s.failed:
		s.warn("with FILE=%s, exit %d from command: %s", s.curName, st, s.filter)
		s.failed = true
		s.filterStatus = st
	}
}

// filterPiece stands for an open piece while --filter collects it.
type filterPiece struct{ command.File }

func (s *splitter) put(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if !s.charge(int64(len(b))) {
		return false
	}
	if s.filter != "" {
		if !s.reserve(int64(len(b))) {
			return false
		}
		s.piece.Write(b)
		return true
	}
	if _, err := s.cur.Write(b); err != nil {
		s.fileErr(s.curName, err)
		return false
	}
	return true
}

// Split runs split.
func Split(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, args, ok := p.parse(&splitSpec)
	if !ok {
		return p.status
	}
	s := &splitter{proc: p, prefix: "x", alphabet: "abcdefghijklmnopqrstuvwxyz", auto: true}
	mode, size := "l", int64(1000)
	chunkKind, chunkK, chunkN := "", int64(0), int64(0)
	suffixLen := 2
	elide := false
	sep := byte('\n')
	start := int64(0)
	startSet := false
	count := func(arg, what string) (int64, bool) {
		v, err := parseCount(arg)
		if err == nil && v == 0 {
			p.warn("invalid number of %s: %s: Numerical result out of range", what, quote(arg))
			return 0, false
		}
		if err != nil {
			if err == errTooLarge {
				return 1<<62 - 1, true
			}
			p.warn("invalid number of %s: %s", what, quote(arg))
			return 0, false
		}
		return v, true
	}
	for _, o := range opts {
		switch o.Name {
		case "a":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				p.warn("invalid suffix length: %s", quote(o.Val))
				return p.exit(1)
			}
			suffixLen, s.auto = n, false
		case "b", "C", "l":
			what := map[string]string{"b": "bytes", "C": "bytes", "l": "lines"}[o.Name]
			v, ok := count(o.Val, what)
			if !ok {
				return p.exit(1)
			}
			mode, size = o.Name, v
		case "n":
			parts := strings.Split(o.Val, "/")
			kind := ""
			if parts[0] == "l" || parts[0] == "r" {
				kind, parts = parts[0], parts[1:]
			}
			var k, n int64
			var err error
			switch len(parts) {
			case 1:
				n, err = strconv.ParseInt(parts[0], 10, 64)
			case 2:
				k, err = strconv.ParseInt(parts[0], 10, 64)
				if err == nil {
					n, err = strconv.ParseInt(parts[1], 10, 64)
				}
			default:
				err = strconv.ErrSyntax
			}
			if err != nil || n <= 0 || k < 0 || k > n {
				p.warn("invalid number of chunks: %s", quote(o.Val))
				return p.exit(1)
			}
			mode, chunkKind, chunkK, chunkN = "n", kind, k, n
		case "d", "x":
			s.alphabet = "0123456789"
			if o.Name == "x" {
				s.alphabet = "0123456789abcdef"
			}
			if o.HasVal {
				v, err := strconv.ParseInt(o.Val, 10, 64)
				if err != nil || v < 0 {
					p.warn("invalid start value for numerical suffix: %s", quote(o.Val))
					return p.exit(1)
				}
				start, startSet = v, true
			}
		case "additional-suffix":
			if strings.Contains(o.Val, "/") {
				p.warn("invalid suffix %s, contains directory separator", quote(o.Val))
				return p.usageErr("")
			}
			s.extra = o.Val
		case "e":
			elide = true
		case "t":
			t := o.Val
			if t == `\0` {
				t = "\x00"
			}
			if len(t) != 1 {
				p.warn("multi-character separator %s", quote(t))
				return p.exit(1)
			}
			sep = t[0]
		case "u":
		case "verbose":
			s.verbose = true
		case "filter":
			s.filter = o.Val
		}
	}
	if len(args) > 2 {
		return p.usageErr("extra operand %s", quote(args[2]))
	}
	in := "-"
	if len(args) > 0 {
		in = args[0]
	}
	if len(args) > 1 {
		s.prefix = args[1]
	}
	if mode == "n" {
		s.auto = false
		// The suffix must be able to name every chunk.
		need, n := 1, int64(len(s.alphabet))
		for n < chunkN {
			n *= int64(len(s.alphabet))
			need++
		}
		if suffixLen < need {
			suffixLen = need
		}
	}
	if startSet {
		s.auto = false
	}
	s.digits = make([]int, suffixLen)
	if startSet {
		v := start
		for i := suffixLen - 1; i >= 0; i-- {
			s.digits[i] = int(v % int64(len(s.alphabet)))
			v /= int64(len(s.alphabet))
		}
		if v > 0 {
			p.warn("numerical suffix start value is too large for the suffix length")
			return p.exit(1)
		}
	}
	r, err := p.open(in)
	if err != nil {
		p.warn("cannot open %s for reading: %s", qfile(in), command.Message(err))
		return p.exit(1)
	}
	defer r.Close()
	defer s.closeCur()
	status := 0
	switch mode {
	case "n":
		status = s.chunks(r, chunkKind, chunkK, chunkN, elide, sep)
	case "l":
		status = s.byLines(r, size, sep)
	case "b":
		status = s.byBytes(r, size)
	case "C":
		status = s.byLineBytes(r, size, sep)
	}
	s.closeCur()
	if p.stop {
		return p.exit(1)
	}
	if s.failed && status == 0 {
		status = 1
		if s.filterStatus != 0 {
			status = s.filterStatus
		}
	}
	return p.exit(status)
}

func (s *splitter) byLines(r io.Reader, n int64, sep byte) int {
	lr := newLineReader(r, sep)
	var inPiece int64
	for {
		line, err := lr.next()
		if len(line) > 0 {
			if s.cur == nil || inPiece == n {
				if !s.open() {
					return 1
				}
				inPiece = 0
			}
			if !s.put(line) {
				return 1
			}
			inPiece++
		}
		if err == io.EOF {
			return 0
		}
		if err != nil {
			return s.readErr(err)
		}
	}
}

func (s *splitter) readErr(err error) int {
	if err != errStop {
		s.warn("read error: %s", command.Message(err))
	}
	return 1
}

func (s *splitter) byBytes(r io.Reader, n int64) int {
	buf := make([]byte, 32*1024)
	var inPiece int64
	for {
		k, err := r.Read(buf)
		b := buf[:k]
		for len(b) > 0 {
			if s.cur == nil || inPiece == n {
				if !s.open() {
					return 1
				}
				inPiece = 0
			}
			take := min(int64(len(b)), n-inPiece)
			if !s.put(b[:take]) {
				return 1
			}
			inPiece += take
			b = b[take:]
		}
		if err == io.EOF {
			return 0
		}
		if err != nil {
			return s.readErr(err)
		}
	}
}

// byLineBytes is -C: at most n bytes per piece, breaking after a line
// end when possible and inside a line only when it alone exceeds n.
func (s *splitter) byLineBytes(r io.Reader, n int64, sep byte) int {
	lr := newLineReader(r, sep)
	var inPiece int64
	for {
		line, err := lr.next()
		for len(line) > 0 {
			if s.cur == nil || (inPiece > 0 && inPiece+int64(len(line)) > n) || inPiece == n {
				if !s.open() {
					return 1
				}
				inPiece = 0
			}
			take := min(int64(len(line)), n-inPiece)
			if !s.put(line[:take]) {
				return 1
			}
			inPiece += take
			line = line[take:]
		}
		if err == io.EOF {
			return 0
		}
		if err != nil {
			return s.readErr(err)
		}
	}
}

func (s *splitter) chunks(r io.Reader, kind string, k, n int64, elide bool, sep byte) int {
	data, err := s.slurp(r)
	if err != nil {
		return s.readErr(err)
	}
	total := int64(len(data))
	toStdout := k > 0
	emit := func(idx int64, b []byte) bool {
		if toStdout {
			if idx == k {
				return s.write(b)
			}
			return true
		}
		if elide && len(b) == 0 {
			return true
		}
		if !s.open() {
			return false
		}
		return s.put(b)
	}
	switch kind {
	case "":
		per := max(total/n, 1)
		for i := int64(1); i <= n; i++ {
			lo, hi := min((i-1)*per, total), min(i*per, total)
			if i == n {
				hi = total
			}
			if !emit(i, data[lo:hi]) {
				return 1
			}
		}
	case "l":
		per := max(total/n, 1)
		pos := int64(0)
		for i := int64(1); i <= n; i++ {
			end := min(i*per, total)
			if i == n {
				end = total
			}
			hi := pos
			if end > pos {
				j := strings.IndexByte(string(data[end-1:]), sep)
				if j < 0 {
					hi = total
				} else {
					hi = end + int64(j)
				}
			}
			if hi < pos {
				hi = pos
			}
			if !emit(i, data[pos:hi]) {
				return 1
			}
			pos = hi
		}
	case "r":
		pieces := make([][]byte, n)
		for i, line := range splitKeep(data, sep) {
			pieces[int64(i)%n] = append(pieces[int64(i)%n], line...)
		}
		for i := int64(1); i <= n; i++ {
			if !emit(i, pieces[i-1]) {
				return 1
			}
		}
	default:
		panic(fmt.Sprintf("split: chunk kind %q", kind))
	}
	return 0
}

// splitKeep splits data into records keeping their separators.
func splitKeep(data []byte, sep byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := indexByte(data, sep)
		if i < 0 {
			out = append(out, data)
			break
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}
