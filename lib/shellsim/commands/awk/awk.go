package awk

// awk - pattern scanning and processing language
//
// Synopsis:
//
//	awk [-F FS] [-v VAR=VALUE]... [--] 'PROGRAM' [FILE | VAR=VALUE]...
//	awk [-F FS] [-v VAR=VALUE]... -f PROGFILE [-f PROGFILE]... [--] [FILE | VAR=VALUE]...
//	awk [-F FS] [-v VAR=VALUE]... -e 'PROGRAM-TEXT'... [--] [FILE | VAR=VALUE]...
//
// A POSIX awk interpreter with the gawk extensions scripts commonly use:
// length of arrays, gensub, patsplit, split's separator array, strftime,
// systime, mktime, asort, asorti, bit operations, strtonum, typeof,
// PROCINFO["sorted_in"], IGNORECASE, FPAT, ERRNO, \y word boundaries and
// -e. Files are read and written through the virtual filesystem; "| cmd",
// "cmd | getline" and system() run "sh -c cmd" through the machine. Arrays
// iterate in insertion order unless PROCINFO["sorted_in"] says otherwise.
// Every evaluated node costs one unit of CPU fuel. Unsupported and recorded
// as partial: other gawk --options, BEGINFILE/ENDFILE, switch,
// FIELDWIDTHS, BINMODE, LINT, TEXTDOMAIN, coprocesses (|&), @-directives,
// and user-defined comparison functions for sorted_in, asort and asorti.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

const usage = "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...\n" +
	"Usage: awk [POSIX or GNU style options] [--] 'program' file ...\n"

// Awk runs the awk command.
func Awk(inv *command.Invocation) int {
	if err := inv.Sys.Charge(150); err != nil {
		return 1
	}
	name := progName(inv)
	var progFiles []string // -f files; "\x00" + text for -e program text
	var assigns []string
	fs := ""
	fsSet := false
	args := inv.Args[1:]
	i := 0
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(inv.Stderr, "%s: %s\n", name, fmt.Sprintf(format, a...))
		io.WriteString(inv.Stderr, strings.ReplaceAll(usage, "awk", name))
		return 1
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if strings.HasPrefix(a, "--") {
			switch a {
			case "--version":
				fmt.Fprintf(inv.Stdout, "GNU Awk 5.2.1 (shellsim)\n")
				return 0
			case "--help":
				io.WriteString(inv.Stdout, strings.ReplaceAll(usage, "awk", name))
				return 0
			}
			if v, ok := strings.CutPrefix(a, "--field-separator="); ok {
				fs, fsSet = v, true
				continue
			}
			if v, ok := strings.CutPrefix(a, "--assign="); ok {
				assigns = append(assigns, v)
				continue
			}
			if v, ok := strings.CutPrefix(a, "--file="); ok {
				progFiles = append(progFiles, v)
				continue
			}
			if v, ok := strings.CutPrefix(a, "--source="); ok {
				progFiles = append(progFiles, "\x00"+v)
				continue
			}
			inv.Sys.Partial(name + " " + a)
			fmt.Fprintf(inv.Stderr, "%s: option %s is not supported in shellsim\n", name, a)
			return 2
		}
		opt := a[1]
		val := a[2:]
		switch opt {
		case 'F', 'v', 'f', 'e':
			if val == "" {
				if i+1 >= len(args) {
					return usageErr("option requires an argument -- '%c'", opt)
				}
				i++
				val = args[i]
			}
			switch opt {
			case 'F':
				fs, fsSet = val, true
			case 'v':
				assigns = append(assigns, val)
			case 'f':
				progFiles = append(progFiles, val)
			case 'e':
				progFiles = append(progFiles, "\x00"+val)
			}
		default:
			inv.Sys.Partial(fmt.Sprintf("%s -%c", name, opt))
			return usageErr("invalid option -- '%c'", opt)
		}
	}
	var src string
	fromFile := false
	if len(progFiles) == 0 {
		if i >= len(args) {
			io.WriteString(inv.Stderr, strings.ReplaceAll(usage, "awk", name))
			return 1
		}
		src = args[i]
		i++
	} else {
		var b strings.Builder
		for _, pf := range progFiles {
			var data []byte
			var err error
			if text, ok := strings.CutPrefix(pf, "\x00"); ok {
				b.WriteString(text)
				b.WriteByte('\n')
				continue
			}
			if pf == "-" || pf == "/dev/stdin" {
				data, err = io.ReadAll(inv.Stdin)
			} else {
				data, err = inv.FS.ReadFile(inv.Abs(pf))
			}
			if err != nil {
				fmt.Fprintf(inv.Stderr, "%s: fatal: can't open source file `%s' for reading: %s\n", name, pf, command.Message(err))
				return 2
			}
			b.Write(data)
			b.WriteByte('\n')
		}
		src = b.String()
		fromFile = !strings.HasPrefix(progFiles[0], "\x00")
	}
	if err := inv.Sys.Charge(int64(len(src))); err != nil {
		return 1
	}
	prog, err := safeParse(src)
	if err != nil {
		var ue *unsupportedError
		if errors.As(err, &ue) {
			inv.Sys.Partial(ue.feature)
			fmt.Fprintf(inv.Stderr, "%s: %s is not supported in shellsim\n", name, strings.TrimPrefix(ue.feature, "awk "))
			return 2
		}
		var se *syntaxError
		if errors.As(err, &se) {
			reportSyntax(inv, name, src, se, fromFile, progFiles)
		}
		return 2
	}
	m := &interp{inv: inv, prog: prog, outputs: map[string]*outStream{}, inputs: map[string]*inStream{},
		regexCache: map[string]*posixre.Regexp{}}
	m.globals = make([]cell, prog.nglobals)
	m.seed = 1 // gawk's initial seed, as srand() reports it
	m.seedRand(1)
	m.stdin = bufio.NewReader(inv.Stdin)
	m.stdout = bufio.NewWriterSize(inv.Stdout, 4096)
	return m.run(name, fs, fsSet, assigns, args[i:])
}

// reportSyntax prints a gawk-style syntax error with the offending line
// and a caret under the token.
func reportSyntax(inv *command.Invocation, name, src string, se *syntaxError, fromFile bool, files []string) {
	where := "cmd. line"
	if fromFile && len(files) > 0 {
		where = files[0]
	}
	if se.pos < 0 {
		fmt.Fprintf(inv.Stderr, "%s: %s:1: fatal: %s\n", name, where, se.msg)
		return
	}
	pos := min(se.pos, len(src))
	lineNo := strings.Count(src[:pos], "\n") + 1
	if se.plain {
		fmt.Fprintf(inv.Stderr, "%s: %s:%d: error: %s\n", name, where, lineNo, se.msg)
		return
	}
	lineStart := strings.LastIndexByte(src[:pos], '\n') + 1
	lineEnd := strings.IndexByte(src[pos:], '\n')
	if lineEnd < 0 {
		lineEnd = len(src)
	} else {
		lineEnd += pos
	}
	if se.nl {
		lineNo++
	}
	prefix := fmt.Sprintf("%s: %s:%d: ", name, where, lineNo)
	fmt.Fprintf(inv.Stderr, "%s%s\n", prefix, src[lineStart:lineEnd])
	fmt.Fprintf(inv.Stderr, "%s%s^ %s\n", prefix, strings.Repeat(" ", pos-lineStart), se.msg)
}

func (m *interp) run(name, fs string, fsSet bool, assigns, operands []string) (status int) {
	defer func() {
		for _, rel := range m.release {
			rel()
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case stopError:
				status = 1
			case *fatalError:
				m.stdout.Flush()
				if e.noLoc {
					fmt.Fprintf(m.inv.Stderr, "%s: fatal: %s\n", name, e.msg)
				} else {
					fmt.Fprintf(m.inv.Stderr, "%s: cmd. line:1: fatal: %s\n", name, e.msg)
				}
				status = 2
			case ctrl:
				// next/exit escaping where no rule is running (e.g. from
				// a function called in a BEGIN pattern): just stop.
				status = m.exitCode
			default:
				// An interpreter bug must not take the machine down.
				m.stdout.Flush()
				fmt.Fprintf(m.inv.Stderr, "%s: internal error: %v\n", name, r)
				status = 2
			}
		}
	}()
	// defaults
	m.setSpecial(vFS, str(" "))
	m.setSpecial(vOFS, str(" "))
	m.setSpecial(vORS, str("\n"))
	m.setSpecial(vRS, str("\n"))
	m.setSpecial(vSUBSEP, str("\x1c"))
	m.setSpecial(vCONVFMT, str("%.6g"))
	m.setSpecial(vOFMT, str("%.6g"))
	m.globals[vNR].v = num(0)
	m.globals[vFNR].v = num(0)
	m.globals[vRSTART].v = num(0)
	m.globals[vRLENGTH].v = num(-1)
	env := newArray()
	if m.inv.Env != nil {
		for _, kv := range m.inv.Env.Environ() {
			k, v, _ := strings.Cut(kv, "=")
			env.set(k, strnum(v))
		}
	}
	m.globals[vENVIRON].arr = env
	argv := newArray()
	argv.set("0", str(name))
	for i, op := range operands {
		argv.set(strconv.Itoa(i+1), strnum(op))
	}
	m.globals[vARGV].arr = argv
	procinfo := newArray()
	procinfo.set("pid", num(float64(m.inv.Sys.PID())))
	procinfo.set("ppid", num(float64(m.inv.Sys.PPID())))
	procinfo.set("version", str("5.2.1"))
	procinfo.set("FS", str("FS"))
	procinfo.set("strftime", str("%a %b %e %H:%M:%S %Z %Y"))
	m.globals[vPROCINFO].arr = procinfo
	m.globals[vARGC].v = num(float64(len(operands) + 1))
	if fsSet {
		if fs == "t" {
			fs = "t"
		}
		m.assignOperand("FS", fs)
	}
	for _, a := range assigns {
		n, v, ok := isAssignment(a)
		if !ok {
			fmt.Fprintf(m.inv.Stderr, "%s: fatal: `%s' is not a legal variable name\n", name, a)
			return 2
		}
		m.assignOperand(n, v)
	}

	exiting := false
	for _, b := range m.prog.begin {
		if m.runAction(b) == cExit {
			exiting = true
			break
		}
	}
	if !exiting && (len(m.prog.items) > 0 || len(m.prog.end) > 0) {
		exiting = m.mainLoop()
	}
	_ = exiting
	m.inEnd = true
	for _, b := range m.prog.end {
		if m.runAction(b) == cExit {
			break
		}
	}
	m.closeMain()
	m.flushStdout()
	m.closeAll()
	m.flushFuel()
	return m.exitCode
}

// runAction runs a BEGIN/END block or a rule body, turning next/exit
// escaping from functions into control values.
func (m *interp) runAction(b blockStmt) (c ctrl) {
	defer func() {
		if r := recover(); r != nil {
			if ct, ok := r.(ctrl); ok {
				m.frame, m.depth = nil, 0
				c = ct
				return
			}
			panic(r)
		}
	}()
	c = m.execBlock(b)
	if c == cNext && m.inEnd {
		m.fatal("`next' used in END action")
	}
	return c
}

// mainLoop reads every record and applies the rules. It reports whether
// exit was called.
func (m *interp) mainLoop() bool {
	for {
		rec, ok := m.nextMain()
		if !ok {
			return false
		}
		m.setSpecial(vNR, num(m.globals[vNR].v.num()+1))
		m.globals[vFNR].v = num(m.globals[vFNR].v.num() + 1)
		m.setRecord(rec)
		m.charge(len(rec) + 1)
	items:
		for _, it := range m.prog.items {
			ok, c := m.safeMatches(it)
			if !ok && c == cNone {
				continue
			}
			if c == cNone && it.noBody {
				m.writeStdout(m.record + m.ors)
			} else if c == cNone {
				c = m.runAction(it.body)
			}
			switch c {
			case cNext:
				break items
			case cNextFile:
				m.closeMain()
				break items
			case cExit:
				return true
			}
		}
	}
}

// safeMatches evaluates a pattern; next or exit inside a function
// called from the pattern come back as a control value.
func (m *interp) safeMatches(it *item) (ok bool, c ctrl) {
	defer func() {
		if r := recover(); r != nil {
			ct, isCtrl := r.(ctrl)
			if !isCtrl {
				panic(r)
			}
			m.frame, m.depth = nil, 0
			ok, c = false, ct
		}
	}()
	return m.matches(it), cNone
}

func (m *interp) matches(it *item) bool {
	if it.pat == nil {
		return true
	}
	if !it.isRange {
		return m.eval(it.pat).bool()
	}
	if !it.inRange {
		if !m.eval(it.pat).bool() {
			return false
		}
		it.inRange = !m.eval(it.pat2).bool()
		return true
	}
	if m.eval(it.pat2).bool() {
		it.inRange = false
	}
	return true
}

// safeParse guards against parser bugs: a panic becomes a syntax error.
func safeParse(src string) (prog *program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, &syntaxError{pos: len(src), msg: fmt.Sprintf("syntax error (internal: %v)", r)}
		}
	}()
	return parse(src)
}
