package sed

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// source is one input operand ("-" is standard input).
type source struct {
	name string
	r    *bufio.Reader
	file command.File
}

// output writes to a stream, remembering when the last line lacked its
// newline so that later output starts on a fresh line, as GNU sed does.
type output struct {
	w       io.Writer
	missing bool
	err     error
}

func (o *output) write(s string, newline bool, delim byte) error {
	if o.err != nil {
		return o.err
	}
	if o.missing {
		if _, o.err = io.WriteString(o.w, string(delim)); o.err != nil {
			return o.err
		}
		o.missing = false
	}
	if _, o.err = io.WriteString(o.w, s); o.err != nil {
		return o.err
	}
	if newline {
		_, o.err = o.w.Write([]byte{delim})
	} else {
		o.missing = true
	}
	return o.err
}

// errStop ends processing at once; the status is already decided.
type errStop struct{ status int }

func (e errStop) Error() string { return fmt.Sprintf("stop %d", e.status) }

type machine struct {
	inv   *command.Invocation
	opt   *options
	prog  []*cmd
	delim byte

	srcs    []string
	srcIdx  int
	cur     *source
	curName string
	status  int

	// the lookahead line: the next line of input, if any.
	ahead     string
	aheadNL   bool
	aheadOK   bool
	aheadFile bool // ahead starts a new file (separate mode)
	lineNo    int
	psNL      bool // the pattern space ends its line (GNU's "chomped")
	hsNL      bool // the same for the hold space
	segOpened bool // separate mode: the current file has been opened

	ps, hs   string
	out      *output
	stdout   *output
	appendQ  []appendItem
	tflag    bool
	lastRe   *posixre.Regexp
	quit     bool
	exitCode int

	wfiles  map[string]*strings.Builder
	worder  []string
	rfiles  map[string]*bufio.Reader
	reserve int64
	release []func()
}

type appendItem struct {
	text string
	file string // r: whole file; R: one line
	line bool
}

// fuel charges the backtracking matcher's steps (posixre.Options.Fuel).
func (m *machine) fuel(n int64) error { return m.charge(int(n)) }

// regexErr turns a match the matcher gave up on into the stop it means:
// out of fuel, or a pattern too complex to finish (reported).
func (m *machine) regexErr(re *posixre.Regexp) error {
	err := re.Err()
	if err == nil {
		return nil
	}
	var stop errStop
	if errors.As(err, &stop) {
		return stop
	}
	fmt.Fprintf(m.inv.Stderr, "sed: %s\n", err)
	return errStop{4}
}

func (m *machine) charge(n int) error {
	if err := m.inv.Sys.Charge(int64(n)); err != nil {
		return errStop{1}
	}
	return nil
}

// track reserves memory for the pattern and hold spaces as they grow.
func (m *machine) track() error {
	need := int64(len(m.ps) + len(m.hs))
	if need <= m.reserve {
		return nil
	}
	grow := max(need-m.reserve, 4096)
	rel, err := m.inv.Sys.Reserve(grow)
	if err != nil {
		return errStop{1}
	}
	m.release = append(m.release, rel)
	m.reserve += grow
	return nil
}

// openNext opens the next readable input; it reports false at the end.
func (m *machine) openNext() (bool, error) {
	for m.srcIdx < len(m.srcs) {
		name := m.srcs[m.srcIdx]
		m.srcIdx++
		if m.cur != nil && m.cur.file != nil {
			m.cur.file.Close()
		}
		m.cur = nil
		if name == "-" {
			m.cur = &source{name: "-", r: bufio.NewReader(m.inv.Stdin)}
			return true, nil
		}
		p := m.inv.Abs(name)
		fi, err := m.inv.FS.Stat(p)
		if err == nil && fi.IsDir() {
			if m.opt.inPlace {
				fmt.Fprintf(m.inv.Stderr, "sed: couldn't edit %s: not a regular file\n", name)
				m.status = 4
			} else {
				// GNU treats this as an I/O error and stops at once.
				fmt.Fprintf(m.inv.Stderr, "sed: read error on %s: Is a directory\n", name)
				return false, errStop{4}
			}
			continue
		}
		var f command.File
		if err == nil {
			f, err = m.inv.FS.Open(p)
		}
		if err != nil {
			fmt.Fprintf(m.inv.Stderr, "sed: can't read %s: %s\n", name, command.Message(err))
			m.status = 2
			continue
		}
		m.cur = &source{name: name, r: bufio.NewReader(f), file: f}
		return true, nil
	}
	return false, nil
}

// readRaw reads one line from the current source, moving on to the next
// source when allowed.
func (m *machine) readRaw(crossFiles bool) (line string, nl, ok, newFile bool, err error) {
	for {
		if m.cur == nil {
			if !crossFiles && m.segOpened {
				return "", false, false, newFile, nil
			}
			more, err := m.openNext()
			if err != nil || !more {
				return "", false, false, newFile, err
			}
			m.segOpened = true
			newFile = true
		}
		s, rerr := m.cur.r.ReadString(m.delim)
		if len(s) > 0 {
			if err := m.charge(len(s)); err != nil {
				return "", false, false, false, err
			}
			if strings.HasSuffix(s, string(m.delim)) {
				return s[:len(s)-1], true, true, newFile, nil
			}
			return s, false, true, newFile, nil
		}
		if rerr != nil && rerr != io.EOF {
			fmt.Fprintf(m.inv.Stderr, "sed: read error on %s: %s\n", m.cur.name, command.Message(rerr))
			m.status = 2
		}
		if m.cur.file != nil {
			m.cur.file.Close()
		}
		m.cur = nil
		if !crossFiles {
			return "", false, false, newFile, nil
		}
	}
}

// fill loads the lookahead line.
func (m *machine) fill() error {
	line, nl, ok, newFile, err := m.readRaw(!m.opt.separate)
	m.ahead, m.aheadNL, m.aheadOK, m.aheadFile = line, nl, ok, newFile
	return err
}

// nextLine moves the lookahead into the pattern space.
func (m *machine) nextLine() (bool, error) {
	if !m.aheadOK {
		return false, nil
	}
	m.ps, m.psNL = m.ahead, m.aheadNL
	m.lineNo++
	if err := m.fill(); err != nil {
		return false, err
	}
	return true, m.track()
}

func (m *machine) isLast() bool { return !m.aheadOK }

func (m *machine) emit(s string) error {
	if err := m.out.write(s, m.psNL, m.delim); err != nil {
		return errStop{1}
	}
	return nil
}

func (m *machine) flushAppend() error {
	for _, a := range m.appendQ {
		switch {
		case a.file == "":
			if err := m.out.write(a.text, false, m.delim); err != nil {
				return errStop{1}
			}
			m.out.missing = false
		case a.line:
			if l, ok := m.readLineFrom(a.file); ok {
				if err := m.out.write(l, true, '\n'); err != nil {
					return errStop{1}
				}
			}
		default:
			data, err := m.readWhole(a.file)
			if err == nil && len(data) > 0 {
				if err := m.charge(len(data)); err != nil {
					return err
				}
				if err := m.out.write(string(data), false, m.delim); err != nil {
					return errStop{1}
				}
				m.out.missing = !strings.HasSuffix(string(data), "\n")
			}
		}
	}
	m.appendQ = m.appendQ[:0]
	return nil
}

func (m *machine) readWhole(name string) ([]byte, error) {
	if name == "/dev/stdin" {
		return io.ReadAll(m.inv.Stdin)
	}
	return m.inv.FS.ReadFile(m.inv.Abs(name))
}

func (m *machine) readLineFrom(name string) (string, bool) {
	r, ok := m.rfiles[name]
	if !ok {
		if data, err := m.readWhole(name); err == nil {
			r = bufio.NewReader(strings.NewReader(string(data)))
		}
		m.rfiles[name] = r
	}
	if r == nil {
		return "", false
	}
	s, err := r.ReadString('\n')
	if s == "" && err != nil {
		return "", false
	}
	return strings.TrimSuffix(s, "\n"), true
}

func (m *machine) writeTo(name, s string) error {
	switch name {
	case "/dev/stdout":
		if err := m.stdout.write(s, true, m.delim); err != nil {
			return errStop{1}
		}
		return nil
	case "/dev/stderr":
		fmt.Fprintf(m.inv.Stderr, "%s%c", s, m.delim)
		return nil
	}
	b := m.wfiles[name]
	b.WriteString(s)
	b.WriteByte(m.delim)
	return nil
}

// matchAddr tests one address against the current line.
func (m *machine) matchAddr(a *address) (bool, error) {
	switch a.kind {
	case addrLine:
		return m.lineNo == a.n, nil
	case addrLast:
		return m.isLast(), nil
	case addrZero:
		return false, nil
	case addrStep:
		if a.step <= 0 {
			return m.lineNo == a.n, nil
		}
		return m.lineNo >= a.n && (m.lineNo-a.n)%a.step == 0, nil
	case addrRegex:
		re := a.re
		if a.empty {
			if m.lastRe == nil {
				fmt.Fprintln(m.inv.Stderr, "sed: no previous regular expression")
				return false, errStop{1}
			}
			re = m.lastRe
		}
		m.lastRe = re
		if err := m.charge(len(m.ps) + 1); err != nil {
			return false, err
		}
		ok := re.MatchString(m.ps)
		return ok, m.regexErr(re)
	}
	return false, nil
}

// selected reports whether the command applies to the current line.
func (m *machine) selected(c *cmd) (bool, error) {
	if c.a1 == nil {
		return true, nil
	}
	if c.a2 == nil {
		ok, err := m.matchAddr(c.a1)
		return ok != c.neg, err
	}
	if c.active {
		var end bool
		switch c.a2.kind {
		case addrLine:
			if m.lineNo > c.a2.n {
				// A line-number end already passed closes the range
				// without matching this line.
				c.active = false
				ok, err := m.startRange(c)
				return ok != c.neg, err
			}
			end = m.lineNo >= c.a2.n
		case addrPlus, addrMult:
			end = m.lineNo >= c.endLine
		case addrLast:
			end = m.isLast()
		default:
			ok, err := m.matchAddr(c.a2)
			if err != nil {
				return false, err
			}
			end = ok
		}
		if end {
			c.active = false
		}
		return !c.neg, nil
	}
	ok, err := m.startRange(c)
	return ok != c.neg, err
}

func (m *machine) startRange(c *cmd) (bool, error) {
	var ok bool
	var err error
	if c.a1.kind == addrZero {
		ok = m.lineNo == 1 || false
		if m.lineNo == 1 {
			// 0,/re/: the end regex may match on the first line.
			end, err := m.matchAddr(c.a2)
			if err != nil {
				return false, err
			}
			c.active = !end
			return true, nil
		}
		return false, nil
	}
	ok, err = m.matchAddr(c.a1)
	if err != nil || !ok {
		return false, err
	}
	c.active = true
	switch c.a2.kind {
	case addrLine:
		if c.a2.n <= m.lineNo {
			c.active = false
		}
	case addrPlus:
		c.endLine = m.lineNo + c.a2.n
		if c.a2.n == 0 {
			c.active = false
		}
	case addrMult:
		if c.a2.n <= 0 {
			c.active = false
		} else {
			c.endLine = (m.lineNo/c.a2.n + 1) * c.a2.n
		}
	case addrLast:
		if m.isLast() {
			c.active = false
		}
	}
	return true, nil
}

// run executes the script over all input. It returns the exit status.
func (m *machine) run() error {
	if err := m.fill(); err != nil {
		return err
	}
	for {
		if !m.aheadOK {
			if !m.opt.separate || m.srcIdx >= len(m.srcs) {
				return nil
			}
			if err := m.endFile(); err != nil {
				return err
			}
			if err := m.fill(); err != nil {
				return err
			}
			continue
		}
		if m.aheadFile {
			if err := m.startFile(); err != nil {
				return err
			}
		}
		if _, err := m.nextLine(); err != nil {
			return err
		}
		if err := m.cycle(); err != nil {
			return err
		}
		if m.quit {
			return m.endFile()
		}
		if m.opt.separate && !m.aheadOK {
			if err := m.endFile(); err != nil {
				return err
			}
			if err := m.fill(); err != nil {
				return err
			}
		}
	}
}

// startFile resets per-file state in separate (-s, -i) mode.
func (m *machine) startFile() error {
	m.curName = m.cur.name
	if !m.opt.separate {
		return nil
	}
	m.lineNo = 0
	for _, c := range m.prog {
		c.active = false
	}
	if m.opt.inPlace {
		m.out = &output{w: &strings.Builder{}}
	}
	return nil
}

// endFile writes the in-place result of the file just finished.
func (m *machine) endFile() error {
	m.segOpened = false
	if !m.opt.inPlace || m.curName == "" {
		return nil
	}
	buf := m.out.w.(*strings.Builder)
	name := m.curName
	m.curName = ""
	m.out = m.stdout
	p := m.inv.Abs(name)
	if m.opt.followSymlinks {
		if rp, err := m.inv.FS.Realpath(p); err == nil {
			p = rp
		}
	}
	fi, err := m.inv.FS.Stat(p)
	if err != nil {
		fmt.Fprintf(m.inv.Stderr, "sed: couldn't edit %s: %s\n", name, command.Message(err))
		m.status = 4
		return nil
	}
	// Like GNU sed, the result replaces the file: a symbolic link becomes
	// a regular file (unless --follow-symlinks) and a backup is the
	// original renamed.
	if m.opt.suffix != "" {
		if err := m.inv.FS.Rename(p, backupName(p, m.opt.suffix)); err != nil {
			fmt.Fprintf(m.inv.Stderr, "sed: cannot rename %s: %s\n", name, command.Message(err))
			m.status = 4
			return nil
		}
	} else if li, err := m.inv.FS.Lstat(p); err == nil && li.Mode&fs.ModeSymlink != 0 {
		if err := m.inv.FS.Remove(p); err != nil {
			fmt.Fprintf(m.inv.Stderr, "sed: cannot remove %s: %s\n", name, command.Message(err))
			m.status = 4
			return nil
		}
	}
	if err := m.charge(buf.Len()); err != nil {
		return err
	}
	if err := m.inv.FS.WriteFile(p, []byte(buf.String()), fi.Mode.Perm()); err != nil {
		fmt.Fprintf(m.inv.Stderr, "sed: couldn't write %s: %s\n", name, command.Message(err))
		m.status = 4
	}
	return nil
}

// backupName applies an -i suffix; a "*" in it stands for the file name.
func backupName(p, suffix string) string {
	dir, base := p[:strings.LastIndexByte(p, '/')+1], p[strings.LastIndexByte(p, '/')+1:]
	if !strings.Contains(suffix, "*") {
		return p + suffix
	}
	b := strings.ReplaceAll(suffix, "*", base)
	if strings.Contains(b, "/") {
		return command.Join(dir, b)
	}
	return dir + b
}

// cycle runs the script once over the pattern space.
func (m *machine) cycle() error {
	m.tflag = false
	autoprint := !m.opt.quiet
	pc := 0
restart:
	for pc < len(m.prog) {
		c := m.prog[pc]
		if err := m.charge(1); err != nil {
			return err
		}
		ok, err := m.selected(c)
		if err != nil {
			return err
		}
		if !ok {
			if c.name == '{' {
				pc = c.target
				continue
			}
			pc++
			continue
		}
		pc++
		switch c.name {
		case '{', '}', ':':
		case '=':
			if err := m.out.write(fmt.Sprint(m.lineNo), true, '\n'); err != nil {
				return errStop{1}
			}
		case 'a':
			m.appendQ = append(m.appendQ, appendItem{text: c.text})
		case 'i':
			if err := m.out.write(c.text, false, m.delim); err != nil {
				return errStop{1}
			}
			m.out.missing = false
		case 'c':
			// In a range the text is printed once, at its end.
			if c.a2 == nil || c.neg || !c.active {
				if err := m.out.write(c.text, false, m.delim); err != nil {
					return errStop{1}
				}
				m.out.missing = false
			}
			autoprint = false
			break restart
		case 'b':
			pc = c.target
		case 't':
			if m.tflag {
				m.tflag = false
				pc = c.target
			}
		case 'T':
			if !m.tflag {
				pc = c.target
			} else {
				m.tflag = false
			}
		case 'd':
			autoprint = false
			break restart
		case 'D':
			i := strings.IndexByte(m.ps, '\n')
			if i < 0 {
				autoprint = false
				break restart
			}
			m.ps = m.ps[i+1:]
			if err := m.flushAppend(); err != nil {
				return err
			}
			// no new input was read, so the t flag carries over (as GNU)
			pc = 0
			continue
		case 'g':
			m.ps, m.psNL = m.hs, m.hsNL
		case 'G':
			m.ps, m.psNL = m.ps+"\n"+m.hs, m.hsNL
		case 'h':
			m.hs, m.hsNL = m.ps, m.psNL
		case 'H':
			m.hs, m.hsNL = m.hs+"\n"+m.ps, m.psNL
		case 'x':
			m.ps, m.hs = m.hs, m.ps
			m.psNL, m.hsNL = m.hsNL, m.psNL
		case 'z':
			m.ps = ""
		case 'F':
			name := m.curName
			if name == "" {
				name = "-"
			}
			if err := m.out.write(name, true, '\n'); err != nil {
				return errStop{1}
			}
		case 'l':
			w := m.opt.lineLen
			if c.num >= 0 {
				w = c.num
			}
			if err := m.out.write(unambiguous(m.ps, w), true, '\n'); err != nil {
				return errStop{1}
			}
		case 'n':
			if !m.aheadOK {
				if m.opt.posix {
					autoprint = false
				}
				break restart
			}
			if !m.opt.quiet {
				if err := m.emit(m.ps); err != nil {
					return err
				}
			}
			if err := m.flushAppend(); err != nil {
				return err
			}
			if _, err := m.nextLine(); err != nil {
				return err
			}
		case 'N':
			if !m.aheadOK {
				break restart
			}
			if err := m.flushAppend(); err != nil {
				return err
			}
			prev := m.ps
			if _, err := m.nextLine(); err != nil {
				return err
			}
			m.ps = prev + "\n" + m.ps
		case 'p':
			if err := m.emit(m.ps); err != nil {
				return err
			}
		case 'P':
			first, _, found := strings.Cut(m.ps, "\n")
			if err := m.out.write(first, found || m.psNL, m.delim); err != nil {
				return errStop{1}
			}
		case 'q':
			m.quit, m.exitCode = true, c.num
			break restart
		case 'Q':
			m.quit, m.exitCode = true, c.num
			m.appendQ = m.appendQ[:0]
			return nil
		case 'r':
			m.appendQ = append(m.appendQ, appendItem{file: c.text})
		case 'R':
			m.appendQ = append(m.appendQ, appendItem{file: c.text, line: true})
		case 'w':
			if err := m.writeTo(c.text, m.ps); err != nil {
				return err
			}
		case 'W':
			first, _, _ := strings.Cut(m.ps, "\n")
			if err := m.writeTo(c.text, first); err != nil {
				return err
			}
		case 's':
			if err := m.subst(c); err != nil {
				return err
			}
		case 'e':
			if c.text == "" {
				out, err := m.shell(m.ps)
				if err != nil {
					return err
				}
				m.ps = strings.TrimSuffix(out, "\n")
				break
			}
			out, err := m.shell(c.text)
			if err != nil {
				return err
			}
			if err := m.out.write(out, false, m.delim); err != nil {
				return errStop{1}
			}
			m.out.missing = false
		case 'y':
			if err := m.charge(len(m.ps)); err != nil {
				return err
			}
			m.ps = strings.Map(func(r rune) rune {
				if t, ok := c.ymap[r]; ok {
					return t
				}
				return r
			}, m.ps)
		}
		if err := m.track(); err != nil {
			return err
		}
	}
	if autoprint {
		if err := m.emit(m.ps); err != nil {
			return err
		}
	}
	return m.flushAppend()
}

func (m *machine) subst(c *cmd) error {
	re := c.re
	if c.reNil {
		if m.lastRe == nil {
			fmt.Fprintln(m.inv.Stderr, "sed: no previous regular expression")
			return errStop{1}
		}
		re = m.lastRe
	}
	m.lastRe = re
	if err := m.charge(2*len(m.ps) + 1); err != nil {
		return err
	}
	limit := -1
	if !c.global && c.nth <= 1 {
		limit = 1
	} else if !c.global {
		limit = c.nth
	}
	matches := re.FindAllStringSubmatchIndex(m.ps, limit)
	if err := m.regexErr(re); err != nil {
		return err
	}
	first := max(c.nth, 1) - 1
	if len(matches) <= first {
		return nil
	}
	var b strings.Builder
	last := 0
	for i, mt := range matches {
		if i < first || (!c.global && i > first) {
			continue
		}
		b.WriteString(m.ps[last:mt[0]])
		expand(&b, m.ps, mt, c.repl)
		last = mt[1]
		if err := m.charge(mt[1] - mt[0] + 1); err != nil {
			return err
		}
	}
	b.WriteString(m.ps[last:])
	m.ps = b.String()
	m.tflag = true
	if c.eval {
		out, err := m.shell(m.ps)
		if err != nil {
			return err
		}
		m.ps = strings.TrimSuffix(out, "\n")
	}
	if err := m.track(); err != nil {
		return err
	}
	for i := 0; i < c.print; i++ {
		if err := m.emit(m.ps); err != nil {
			return err
		}
	}
	if c.wfile != "" {
		return m.writeTo(c.wfile, m.ps)
	}
	return nil
}

// expand writes a replacement with GNU case conversions.
func expand(b *strings.Builder, s string, mt []int, parts []replPart) {
	var mode, once byte // mode: 'U', 'L' or 0; once: 'u', 'l' or 0
	put := func(t string) {
		for _, r := range t {
			switch mode {
			case 'U':
				r = unicode.ToUpper(r)
			case 'L':
				r = unicode.ToLower(r)
			}
			switch once {
			case 'u':
				r = unicode.ToUpper(r)
			case 'l':
				r = unicode.ToLower(r)
			}
			once = 0
			b.WriteRune(r)
		}
	}
	for _, p := range parts {
		switch {
		case p.conv == 'U' || p.conv == 'L':
			mode, once = p.conv, 0
		case p.conv == 'E':
			mode, once = 0, 0
		case p.conv != 0:
			once = p.conv
		case p.group >= 0:
			if 2*p.group+1 < len(mt) && mt[2*p.group] >= 0 {
				t := s[mt[2*p.group]:mt[2*p.group+1]]
				if mode == 0 && once == 0 {
					b.WriteString(t)
				} else {
					put(t)
				}
			}
		default:
			if mode == 0 && once == 0 {
				b.WriteString(p.lit)
			} else {
				put(p.lit)
			}
		}
	}
}

// unambiguous renders the pattern space for the l command.
func unambiguous(s string, width int) string {
	var b strings.Builder
	col := 0
	emit := func(t string) {
		if width > 1 && col+len(t) > width-1 {
			b.WriteString("\\\n")
			col = 0
		}
		b.WriteString(t)
		col += len(t)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			emit(`\\`)
		case c == '\a':
			emit(`\a`)
		case c == '\b':
			emit(`\b`)
		case c == '\f':
			emit(`\f`)
		case c == '\n':
			emit(`\n`)
		case c == '\r':
			emit(`\r`)
		case c == '\t':
			emit(`\t`)
		case c == '\v':
			emit(`\v`)
		case c < 32 || c >= 127:
			emit(fmt.Sprintf("\\%03o", c))
		default:
			emit(string(c))
		}
		i++
	}
	b.WriteString("$")
	return b.String()
}

// shell runs cmd with "sh -c" through the machine (the e command and the
// s///e flag) and returns its standard output.
func (m *machine) shell(cmd string) (string, error) {
	var out strings.Builder
	_, err := m.inv.Sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", cmd},
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: m.inv.Stderr})
	if err != nil && errors.Is(err, command.ErrStopped) {
		return "", errStop{1}
	}
	if err := m.charge(out.Len()); err != nil {
		return "", err
	}
	return out.String(), nil
}
