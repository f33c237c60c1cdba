package text

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// grep, egrep, fgrep - print lines that match patterns
//
//	grep [-EFGP] [-ivwxcLlnobHhqsZz] [-e PAT]... [-f FILE]... [-m NUM]
//	     [-A NUM] [-B NUM] [-C NUM] [-r|-R] [--include=GLOB] [--exclude=GLOB]
//	     [--exclude-dir=GLOB] [PATTERNS] [FILE]...
//
// Basic and extended regular expressions are translated to RE2 by package
// posixre and matched leftmost-longest, as POSIX requires; patterns with
// backreferences or \< \> run on posixre's backtracking matcher. -P uses
// RE2 directly (leftmost-first), which covers Perl syntax except
// lookaround, backreferences and possessive forms: those are recorded as
// partial and fail (exit 2). --color=always uses GNU's default GREP_COLORS
// (GREP_COLORS and GREP_COLOR are not read).
// Directories are walked in name order.

var grepSpec = getopt.Spec{
	Short: "0123456789A:B:C:D:EFGHIJLPRTUVZabcd:e:f:hiLlm:noqRrsuvwxyz",
	Long: []getopt.Long{
		{"basic-regexp", "G"}, {"extended-regexp", "E"}, {"fixed-strings", "F"},
		{"perl-regexp", "P"}, {"after-context=", "A"}, {"before-context=", "B"},
		{"binary-files=", "binary-files"}, {"byte-offset", "b"}, {"context=", "C"},
		{"color", "color"}, {"color=", "color"}, {"colour", "color"}, {"colour=", "color"},
		{"count", "c"}, {"devices=", "D"}, {"directories=", "d"}, {"exclude=", "exclude"},
		{"exclude-from=", "exclude-from"}, {"exclude-dir=", "exclude-dir"}, {"file=", "f"},
		{"files-with-matches", "l"}, {"files-without-match", "L"},
		{"group-separator=", "group-separator"}, {"help", "help"}, {"include=", "include"},
		{"ignore-case", "i"}, {"no-ignore-case", "no-ignore-case"}, {"initial-tab", "T"},
		{"label=", "label"}, {"line-buffered", "line-buffered"}, {"line-number", "n"},
		{"no-line-number", "no-line-number"}, {"line-regexp", "x"}, {"max-count=", "m"},
		{"no-filename", "h"}, {"no-group-separator", "no-group-separator"}, {"no-messages", "s"},
		{"null", "Z"}, {"null-data", "z"}, {"only-matching", "o"}, {"quiet", "q"},
		{"recursive", "r"}, {"dereference-recursive", "R"}, {"regexp=", "e"}, {"invert-match", "v"},
		{"silent", "q"}, {"text", "a"}, {"binary", "U"}, {"version", "V"}, {"with-filename", "H"},
		{"word-regexp", "w"},
	},
	GNUOrder: true,
}

type grep struct {
	*proc
	m                        *grepMatcher
	invert, count, only      bool
	listMatch, listNon       bool
	quiet, noMsgs, lineNums  bool
	byteOff, nullName, text  bool
	withName                 bool
	maxCount                 int64 // -1: unlimited
	before, after            int
	ctx                      bool // context requested
	sep                      string
	noSep                    bool
	delim                    byte
	recursive, deref         bool
	skipDirs                 bool
	includes, excludes, exDs []string
	utf                      bool
	label                    string
	noBinary                 bool // -I: binary files never match
	mw, mx                   bool // -w, -x
	nameIfDir                bool
	lineBuf                  bool // --line-buffered: flush every line
	color                    bool // --color=always
	tabs                     bool // -T: align the line content on a tab stop
	numWidth                 int  // -T: width of line numbers and offsets

	matched, errored bool
	printedAny       bool // for group separators
	done             bool // -q matched: stop everything
}

// Grep runs grep, egrep and fgrep.
func Grep(inv *command.Invocation) int {
	p := newProc(inv, 2)
	g := &grep{proc: p, maxCount: -1, sep: "--", delim: '\n', label: "(standard input)"}
	opts, args, err := grepSpec.Scan(inv.Args[1:])
	if err != nil {
		if err.Unknown != "" {
			p.Sys.Partial(p.name + " " + err.Unknown)
		}
		p.warn("%s", err.Msg)
		fmt.Fprintf(p.Stderr, "Usage: grep [OPTION]... PATTERNS [FILE]...\n")
		return p.usageErr("")
	}
	mode, modeSet := "G", false
	switch p.name {
	case "egrep":
		mode, modeSet = "E", true
	case "fgrep":
		mode, modeSet = "F", true
	}
	// egrep and fgrep are scripts that exec grep: diagnostics say "grep".
	p.name = "grep"
	var patterns []string
	havePat := false
	icase := false
	withName, noName := false, false
	digitCtx, lastDigitArg := -1, -1
	for _, o := range opts {
		switch o.Name {
		case "E", "F", "G", "P":
			if modeSet && mode != o.Name {
				p.warn("conflicting matchers specified")
				return p.exit(2)
			}
			mode, modeSet = o.Name, true
		case "e":
			patterns = append(patterns, strings.Split(o.Val, "\n")...)
			havePat = true
		case "f":
			var data []byte
			var err error
			if o.Val == "-" {
				data, err = p.slurp(&meter{p, p.Stdin})
			} else {
				data, err = p.readAll(o.Val)
			}
			if p.stop || err == errStop {
				return p.exit(2)
			}
			if err != nil {
				p.fileErr(o.Val, err)
				return p.exit(2)
			}
			s := string(data)
			if s != "" {
				patterns = append(patterns, strings.Split(strings.TrimSuffix(s, "\n"), "\n")...)
			}
			havePat = true
		case "i", "y":
			icase = true
		case "no-ignore-case":
			icase = false
		case "w":
			g.mw = true
		case "x":
			g.mx = true
		case "z":
			g.delim = 0
		case "s":
			g.noMsgs = true
		case "v":
			g.invert = true
		case "V":
			p.writeString("grep (GNU grep) 3.8 (shellsim)\n")
			return p.exit(0)
		case "help":
			p.writeString("Usage: grep [OPTION]... PATTERNS [FILE]...\nSearch for PATTERNS in each FILE.\n")
			return p.exit(0)
		case "m":
			n, err := strconv.ParseInt(o.Val, 10, 64)
			if err != nil {
				if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && !strings.HasPrefix(o.Val, "-") {
					n = 1<<63 - 1
				} else {
					p.warn("invalid max count")
					return p.exit(2)
				}
			}
			if n < 0 {
				n = -1
			}
			g.maxCount = n
		case "b":
			g.byteOff = true
		case "n":
			g.lineNums = true
		case "no-line-number":
			g.lineNums = false
		case "line-buffered":
			g.lineBuf = true
		case "U", "u":
		case "H":
			withName, noName = true, false
		case "h":
			noName, withName = true, false
		case "label":
			g.label = o.Val
		case "o":
			g.only = true
		case "q":
			g.quiet = true
		case "binary-files":
			switch o.Val {
			case "binary":
				g.text, g.noBinary = false, false
			case "text":
				g.text = true
			case "without-match":
				g.noBinary = true
			default:
				p.warn("unknown binary-files type")
				return p.exit(2)
			}
		case "a":
			g.text = true
		case "I":
			g.noBinary = true
		case "d":
			switch o.Val {
			case "read":
				g.recursive, g.skipDirs = false, false
			case "skip":
				g.skipDirs = true
			case "recurse":
				g.recursive = true
			default:
				p.warn("invalid argument %s for %s", quote(o.Val), quote("--directories"))
				p.errLines("Valid arguments are:\n  - \uE000read\uE001\n  - \uE000recurse\uE001\n  - \uE000skip\uE001\n")
				return p.usageErr("")
			}
		case "D":
			if o.Val != "read" && o.Val != "skip" {
				p.warn("unknown devices method")
				return p.exit(2)
			}
		case "r":
			g.recursive = true
		case "R":
			g.recursive, g.deref = true, true
		case "include":
			g.includes = append(g.includes, o.Val)
		case "exclude":
			g.excludes = append(g.excludes, o.Val)
		case "exclude-dir":
			g.exDs = append(g.exDs, o.Val)
		case "exclude-from":
			data, err := p.readAll(o.Val)
			if p.stop || err == errStop {
				return p.exit(2)
			}
			if err != nil {
				p.fileErr(o.Val, err)
				return p.exit(2)
			}
			for _, l := range splitLines(data, '\n') {
				g.excludes = append(g.excludes, string(l))
			}
		case "L":
			g.listNon, g.listMatch = true, false
		case "l":
			g.listMatch, g.listNon = true, false
		case "c":
			g.count = true
		case "T":
			g.tabs = true
		case "Z":
			g.nullName = true
		case "A", "B", "C":
			n, err := strconv.ParseInt(o.Val, 10, 32)
			if err != nil || n < 0 {
				p.warn("%s: invalid context length argument", o.Val)
				return p.exit(2)
			}
			switch o.Name {
			case "A":
				g.after = int(n)
			case "B":
				g.before = int(n)
			default:
				g.after, g.before = int(n), int(n)
			}
			g.ctx = true
		case "group-separator":
			g.sep, g.noSep = o.Val, false
		case "no-group-separator":
			g.noSep = true
		case "color":
			switch o.Val {
			case "", "never", "no", "none", "auto", "tty", "if-tty":
				// Output is never a terminal, so auto means never.
				g.color = false
			case "always", "yes", "force":
				g.color = true
			default:
				p.warn("invalid argument %s for %s", quote(o.Val), quote("--color"))
				p.errLines("Valid arguments are:\n  - \uE000always\uE001, \uE000yes\uE001, \uE000force\uE001\n  - \uE000never\uE001, \uE000no\uE001, \uE000none\uE001\n  - \uE000auto\uE001, \uE000tty\uE001, \uE000if-tty\uE001\n")
				return p.usageErr("")
			}
		default:
			if len(o.Name) == 1 && o.Name[0] >= '0' && o.Name[0] <= '9' {
				d := int(o.Name[0] - '0')
				if lastDigitArg == o.Word && digitCtx >= 0 {
					digitCtx = digitCtx*10 + d
				} else {
					digitCtx = d
				}
				lastDigitArg = o.Word
				g.after, g.before, g.ctx = digitCtx, digitCtx, true
			}
		}
	}
	if !havePat {
		if len(args) == 0 {
			fmt.Fprintf(p.Stderr, "Usage: grep [OPTION]... PATTERNS [FILE]...\n")
			return p.usageErr("")
		}
		patterns = strings.Split(args[0], "\n")
		args = args[1:]
	}
	g.utf = utf8Locale(inv.Env)
	m, status := g.compile(mode, patterns, icase)
	if m == nil {
		return status
	}
	g.m = m

	files := args
	noOperand := len(files) == 0
	if noOperand {
		if g.recursive {
			files = []string{"."}
		} else {
			files = []string{"-"}
		}
	}
	// With -r and a single operand, names are shown only if it is a
	// directory (GNU's out_file < 0 case).
	g.withName = len(files) > 1 && !noName
	g.nameIfDir = g.recursive && len(files) == 1 && !noName && !withName
	if withName {
		g.withName = true
	}
	if g.quiet || g.listMatch || g.listNon || g.count || g.only {
		// Context applies only to printed lines.
		if g.quiet || g.listMatch || g.listNon || g.count {
			g.before, g.after, g.ctx = 0, 0, false
		}
	}
	for _, f := range files {
		if g.done || p.stop {
			break
		}
		if f == "-" {
			g.searchStdin()
			continue
		}
		display := f
		if noOperand && g.recursive {
			display = ""
		}
		g.walk(f, display, true)
	}
	if p.stop {
		return p.exit(2)
	}
	switch {
	case g.errored && !(g.quiet && g.matched):
		return p.exit(2)
	case g.matched:
		return p.exit(0)
	}
	return p.exit(1)
}

// grepMatcher finds selected lines and, for -o, the matches in them.
type grepMatcher struct {
	re *posixre.Regexp // nil: no patterns, nothing matches
	// literal, when set, is the whole pattern as plain bytes (no -w, -x,
	// -i): selecting a line is then a substring test, much cheaper than
	// running the regexp machine on every line.
	literal []byte
	word    bool
	whole   *posixre.Regexp // anchored form for -w retries
	utf     bool            // UTF-8 locale: Unicode word characters for -w
}

// meter reports whether matching may go on: a backtracking match stopped
// by the fuel ends grep quietly; one too complex to finish is an error,
// as GNU grep's "memory exhausted".
func (m *grepMatcher) meter(g *grep) bool {
	for _, x := range []*posixre.Regexp{m.re, m.whole} {
		if g.regexFailed(x) {
			if !errors.Is(x.Err(), errNoFuel) {
				g.errored = true
				g.done = true
			}
			return false
		}
	}
	return true
}

func (g *grep) compile(mode string, patterns []string, icase bool) (*grepMatcher, int) {
	p := g.proc
	m := &grepMatcher{word: g.mw && !g.mx, utf: g.utf}
	if len(patterns) == 0 {
		return m, 0
	}
	if mode == "P" {
		return g.compilePerl(m, patterns, icase)
	}
	o := posixre.Options{Extended: mode == "E", Unicode: g.utf, ICase: icase,
		// With -z a record may hold newlines, and '.' matches them.
		DotNL: g.delim == 0,
		Fuel:  g.fuel}
	exprs := make([]*posixre.Expr, len(patterns))
	for i, pat := range patterns {
		if mode == "F" {
			exprs[i] = posixre.Literal(pat)
			continue
		}
		e, err := posixre.Parse(pat, o)
		if err != nil {
			p.warn("%s", err)
			return nil, p.exit(2)
		}
		exprs[i] = e
	}
	e := posixre.Alternate(exprs...)
	if g.mx {
		e = e.Whole()
	}
	re, err := e.Compile(o)
	if err != nil {
		p.warn("%s", err)
		return nil, p.exit(2)
	}
	// GNU prints these only for a pattern that compiles.
	for _, w := range e.Warnings() {
		p.warn("warning: %s", w)
	}
	m.re = re
	if lit, ok := e.LiteralBytes(); ok && !m.word && !icase {
		m.literal = lit
	}
	if m.word {
		m.whole, _ = e.Prefix().Compile(o)
	}
	return m, 0
}

// compilePerl runs -P patterns on Go's regexp (RE2), leftmost-first as
// Perl matches; what RE2 lacks is reported as partial.
func (g *grep) compilePerl(m *grepMatcher, patterns []string, icase bool) (*grepMatcher, int) {
	p := g.proc
	alts := make([]string, len(patterns))
	for i, pat := range patterns {
		if _, err := regexp.Compile(pat); err != nil {
			p.Sys.Partial("grep -P")
			p.warn("Perl regular expression not supported in shellsim: %s", err)
			return nil, p.exit(2)
		}
		alts[i] = "(?:" + pat + ")"
	}
	expr := strings.Join(alts, "|")
	if g.mx {
		expr = "^(?:" + expr + ")$"
	}
	flags := ""
	if icase {
		flags = "(?i)"
	}
	if g.delim == 0 {
		flags += "(?s)"
	}
	re, err := regexp.Compile(flags + expr)
	if err != nil {
		p.warn("%s", err)
		return nil, p.exit(2)
	}
	m.re = posixre.FromRE2(re)
	if m.word {
		m.whole = posixre.FromRE2(regexp.MustCompile(flags + `\A(?:` + expr + `)`))
	}
	return m, 0
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// wordOK: the match [s,e) is not glued to word characters (Unicode ones
// in a UTF-8 locale).
func (m *grepMatcher) wordOK(line []byte, s, e int) bool {
	if m.utf {
		if s > 0 {
			if r, _ := utf8.DecodeLastRune(line[:s]); posixre.IsWordRune(r) {
				return false
			}
		}
		if e < len(line) {
			if r, _ := utf8.DecodeRune(line[e:]); posixre.IsWordRune(r) {
				return false
			}
		}
		return true
	}
	if s > 0 && isWordByte(line[s-1]) {
		return false
	}
	if e < len(line) && isWordByte(line[e]) {
		return false
	}
	return true
}

// matches returns the selected match spans of line: all non-overlapping
// leftmost-longest matches, honouring -w as GNU grep does (a failed
// candidate is retried shorter, then one character later). With limit 1
// it stops at the first.
func (m *grepMatcher) matches(line []byte, limit int) [][2]int {
	if m.re == nil {
		return nil
	}
	if !m.word {
		locs := m.re.FindAllIndex(line, limit)
		out := make([][2]int, len(locs))
		for i, l := range locs {
			out[i] = [2]int{l[0], l[1]}
		}
		return out
	}
	var out [][2]int
	start := 0
	for start <= len(line) && (limit < 0 || len(out) < limit) {
		loc := m.re.FindIndex(line[start:])
		if loc == nil {
			break
		}
		s, e := start+loc[0], start+loc[1]
		found := false
		for {
			if m.wordOK(line, s, e) {
				found = true
				break
			}
			if e <= s {
				break
			}
			l := m.whole.FindIndex(line[s : e-1])
			if l == nil {
				break
			}
			e = s + l[1]
		}
		if found {
			out = append(out, [2]int{s, e})
			if e > s {
				start = e
			} else {
				start = e + 1
			}
			continue
		}
		start = s + 1
	}
	return out
}

func (m *grepMatcher) match(line []byte) bool {
	if m.re == nil {
		return false
	}
	if m.literal != nil {
		return bytes.Contains(line, m.literal)
	}
	if !m.word {
		return m.re.Match(line)
	}
	return len(m.matches(line, 1)) > 0
}

func (g *grep) excluded(name string, cmdline bool) bool {
	base := path.Base(name)
	for _, x := range g.excludes {
		if ok, _ := path.Match(x, base); ok {
			return true
		}
		if cmdline {
			if ok, _ := path.Match(x, name); ok {
				return true
			}
		}
	}
	if len(g.includes) > 0 {
		for _, in := range g.includes {
			if ok, _ := path.Match(in, base); ok {
				return false
			}
		}
		return true
	}
	return false
}

func (g *grep) dirExcluded(name string) bool {
	base := path.Base(name)
	for _, x := range g.exDs {
		if ok, _ := path.Match(x, base); ok {
			return true
		}
	}
	return false
}

func (g *grep) errMsg(name string, err error) {
	g.errored = true
	if !g.noMsgs {
		g.warn("%s: %s", name, command.Message(err))
	}
}

// walk searches a file operand or, with -r, a directory tree. display is
// the name printed ("" for the implicit "." of a bare grep -r).
func (g *grep) walk(name, display string, cmdline bool) {
	if g.done || g.stop {
		return
	}
	shown := display
	if shown == "" {
		shown = "."
	}
	abs := g.Abs(name)
	var fi command.FileInfo
	var err error
	if cmdline || g.deref {
		fi, err = g.FS.Stat(abs)
	} else {
		fi, err = g.FS.Lstat(abs)
		if err == nil && fi.Mode&fs.ModeSymlink != 0 {
			return // grep -r does not follow symlinks below the operands
		}
	}
	if err != nil {
		g.errMsg(shown, err)
		return
	}
	if cmdline && g.nameIfDir {
		g.withName = fi.IsDir()
	}
	if fi.IsDir() {
		if g.skipDirs && !g.recursive {
			return
		}
		if cmdline && len(g.exDs) > 0 && display != "" && g.dirExcluded(name) {
			return
		}
		if !g.recursive {
			// GNU reads a directory as an empty file that fails.
			g.errMsg(shown, command.ErrIsDir)
			g.finish(shown, 0)
			return
		}
		if !cmdline && g.dirExcluded(name) {
			return
		}
		ents, err := g.FS.ReadDir(abs)
		if err != nil {
			g.errMsg(shown, err)
			return
		}
		if !g.charge(int64(len(ents)) * 10) {
			return
		}
		for _, e := range ents {
			child := path.Join(name, e.Name)
			cd := e.Name
			if display != "" {
				cd = strings.TrimSuffix(display, "/") + "/" + e.Name
			}
			if !e.IsDir() && e.Mode&fs.ModeSymlink == 0 && g.excluded(e.Name, false) {
				continue
			}
			g.walk(child, cd, false)
		}
		return
	}
	if fi.Mode&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0 && !cmdline {
		return
	}
	if (cmdline && g.excluded(name, true)) || (!cmdline && g.excluded(name, false)) {
		return
	}
	f, err := g.FS.Open(abs)
	if err != nil {
		g.errMsg(shown, err)
		return
	}
	defer f.Close()
	g.numWidth = len(strconv.FormatInt(fi.Size, 10))
	g.search(&meter{g.proc, f}, shown)
}

func (g *grep) searchStdin() {
	// -T pads numbers to the input's size digits; a pipe has no size, and
	// GNU then uses the widest 64-bit number.
	g.numWidth = 19
	if st, ok := g.Stdin.(interface {
		Stat() (command.FileInfo, error)
	}); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode.IsRegular() {
			g.numWidth = len(strconv.FormatInt(fi.Size, 10))
		}
	}
	g.search(&meter{g.proc, g.Stdin}, g.label)
}

// ctxLine is a held line of leading context.
type ctxLine struct {
	text []byte
	num  int64
	off  int64
}

func (g *grep) search(r io.Reader, name string) {
	br := bufio.NewReaderSize(r, 32*1024)
	binary := false
	if !g.text {
		// Look at whatever the first read returned (up to 32 KiB) without
		// waiting for more, so a slow pipe is not held up.
		br.Peek(1)
		head, _ := br.Peek(br.Buffered())
		binary = bytes.IndexByte(head, 0) >= 0 && g.delim != 0
		if !binary && g.utf && !utf8.Valid(trimPartialRune(head)) {
			binary = true
		}
	}
	if binary && g.noBinary {
		return
	}
	lr := &lineReader{r: br, delim: g.delim}
	var (
		lineNum   int64
		offset    int64
		count     int64
		lastOut   int64 = -1 // line number of the last printed line
		pendAfter int
		held      []ctxLine
		stopAfter bool // max count reached: only trailing context remains
	)
	// group prints the "--" separator when line num does not follow the
	// last line output (in any file), once context is on.
	group := func(num int64) {
		if g.ctx && g.printedAny && !g.noSep && (lastOut < 0 || num != lastOut+1) {
			g.writeString(g.paint(sgrSep, g.sep) + "\n")
		}
		g.printedAny = true
		lastOut = num
	}
	emit := func(text []byte, num, off int64, sepc byte) bool {
		group(num)
		if g.only && sepc == '-' {
			// -o prints no context lines, but they still join groups.
			return true
		}
		return g.writeLine(name, num, off, sepc, text, false)
	}
	for g.maxCount != 0 {
		raw, err := lr.next()
		if len(raw) > 0 {
			lineNum++
			line := raw
			if line[len(line)-1] == g.delim {
				line = line[:len(line)-1]
			}
			if !binary && !g.text && g.delim != 0 && bytes.IndexByte(line, 0) >= 0 {
				binary = true
				if g.noBinary {
					return
				}
			}
			if !binary && !g.text && g.utf && !utf8.Valid(line) {
				binary = true
				if g.noBinary {
					return
				}
			}
			selected := g.m.match(line) != g.invert
			if !g.m.meter(g) {
				return
			}
			if stopAfter {
				if pendAfter == 0 {
					break
				}
				if !emit(line, lineNum, offset, '-') {
					return
				}
				pendAfter--
				offset += int64(len(raw))
				continue
			}
			if selected {
				count++
				g.matched = true
				if g.quiet {
					g.done = true
					return
				}
				if g.listMatch || g.listNon {
					break
				}
				if !g.count {
					if binary {
						g.flush()
						fmt.Fprintf(g.Stderr, "%s: %s: binary file matches\n", g.name, name)
						return
					}
					for _, h := range held {
						if !emit(h.text, h.num, h.off, '-') {
							return
						}
					}
					held = held[:0]
					if g.only {
						group(lineNum)
						if !g.invert {
							for _, s := range g.m.matches(line, -1) {
								if s[1] == s[0] {
									continue
								}
								if !g.writeLine(name, lineNum, offset+int64(s[0]), ':', line[s[0]:s[1]], true) {
									return
								}
							}
						}
					} else if !emit(line, lineNum, offset, ':') {
						return
					}
					pendAfter = g.after
				}
				if g.maxCount >= 0 && count >= g.maxCount {
					stopAfter = true
					if pendAfter == 0 || g.count {
						break
					}
				}
			} else if !g.count && !g.listMatch && !g.listNon && g.ctx {
				if pendAfter > 0 {
					if !emit(line, lineNum, offset, '-') {
						return
					}
					pendAfter--
				} else if g.before > 0 {
					held = append(held, ctxLine{append([]byte(nil), line...), lineNum, offset})
					if len(held) > g.before {
						held = held[1:]
					}
				}
			}
			offset += int64(len(raw))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if err != errStop {
				g.errMsg(name, err)
			}
			return
		}
	}
	g.finish(name, count)
}

// finish prints the per-file summary: -l/-L names or the -c count.
func (g *grep) finish(name string, count int64) {
	if g.quiet {
		return
	}
	switch {
	case g.listMatch && count > 0:
		g.writeName(name, '\n')
	case g.listNon && count == 0:
		g.writeName(name, '\n')
	case g.count && !g.listMatch && !g.listNon:
		if g.withName {
			g.writeName(name, ':')
		}
		g.writeString(strconv.FormatInt(count, 10) + "\n")
	}
}

// writeName prints a file name followed by sep, or by NUL with -Z.
// GNU grep's default GREP_COLORS.
const (
	sgrMatch = "01;31"
	sgrFile  = "35"
	sgrNum   = "32"
	sgrSep   = "36"
)

// paint wraps s in an SGR color sequence when --color=always is on.
func (g *grep) paint(sgr, s string) string {
	if !g.color || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m\x1b[K" + s + "\x1b[m\x1b[K"
}

func (g *grep) writeSep(sep byte) bool {
	if sep == ':' || sep == '-' {
		return g.writeString(g.paint(sgrSep, string(sep)))
	}
	return g.write([]byte{sep})
}

// writeName prints a file name followed by sep, or by NUL with -Z.
func (g *grep) writeName(name string, sep byte) bool {
	if g.nullName {
		sep = 0
	}
	return g.writeString(g.paint(sgrFile, name)) && g.writeSep(sep)
}

// writeLine prints one output line with its prefixes; with color the
// matches in it are highlighted (whole text for -o, which passes only).
func (g *grep) writeLine(name string, num, off int64, sep byte, text []byte, only bool) bool {
	if g.withName {
		g.writeName(name, sep)
	}
	number := func(n int64) {
		s := strconv.FormatInt(n, 10)
		if g.tabs && len(s) < g.numWidth {
			s = strings.Repeat(" ", g.numWidth-len(s)) + s
		}
		g.writeString(g.paint(sgrNum, s))
		g.writeSep(sep)
	}
	if g.lineNums {
		number(num)
	}
	if g.byteOff {
		number(off)
	}
	if g.tabs && (g.withName || g.lineNums || g.byteOff) {
		g.write([]byte{'\t'})
	}
	switch {
	case !g.color:
		g.write(text)
	case only:
		g.writeString(g.paint(sgrMatch, string(text)))
	default:
		last := 0
		for _, m := range g.m.matches(text, -1) {
			if m[1] == m[0] {
				continue
			}
			g.write(text[last:m[0]])
			g.writeString(g.paint(sgrMatch, string(text[m[0]:m[1]])))
			last = m[1]
		}
		g.write(text[last:])
	}
	if !g.write([]byte{g.delim}) {
		return false
	}
	return !g.lineBuf || g.flush()
}

// trimPartialRune drops an incomplete UTF-8 sequence cut by a buffer end.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= 3 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return b
		}
		if c >= 0xc0 {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}
