package awk

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// Special variables occupy the first global slots.
var specialNames = []string{"NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME",
	"SUBSEP", "RSTART", "RLENGTH", "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV", "RT", "PROCINFO", "IGNORECASE", "FPAT"}

const (
	vNR = iota
	vNF
	vFNR
	vFS
	vOFS
	vORS
	vRS
	vFILENAME
	vSUBSEP
	vRSTART
	vRLENGTH
	vCONVFMT
	vOFMT
	vENVIRON
	vARGC
	vARGV
	vRT
	vPROCINFO
	vIGNORECASE
	vFPAT
	nSpecial
)

type cell struct {
	v   value
	arr *array
	ref *cell // a parameter bound to a caller's untyped variable
}

type ctrl int

const (
	cNone ctrl = iota
	cBreak
	cContinue
	cNext
	cNextFile
	cExit
	cReturn
)

// stopError means the process must stop (fuel, memory, broken pipe).
type stopError struct{}

func (stopError) Error() string { return "stopped" }

type interp struct {
	inv     *command.Invocation
	prog    *program
	globals []cell
	frame   []cell
	depth   int
	retval  value

	// cached special variables
	fs, ofs, ors, rs, subsep, convfmt, ofmt string
	icase                                   bool   // gawk's IGNORECASE
	fpat                                    string // gawk's FPAT, when it was set after FS

	record      string
	recFS       string // FS when the record was read: later changes apply to the next record
	recFPAT     string
	fields      []string
	fieldsValid bool
	nf          int

	steps   int64
	memPend int64
	release []func()

	stdin    *bufio.Reader
	stdout   *bufio.Writer
	main     *recordReader
	mainFile command.File
	argIdx   int
	usedFile bool
	mainDone bool

	outputs map[string]*outStream
	inputs  map[string]*inStream

	regexCache map[string]*posixre.Regexp
	randState  uint64
	seed       float64

	exitCode int
	inEnd    bool
}

func (m *interp) fatal(format string, a ...any) {
	panic(&fatalError{msg: fmt.Sprintf(format, a...)})
}

// tick charges fuel for evaluated nodes in batches.
func (m *interp) tick() {
	m.steps++
	if m.steps >= 256 {
		m.flushFuel()
	}
}

func (m *interp) flushFuel() {
	n := m.steps
	m.steps = 0
	if n > 0 {
		if err := m.inv.Sys.Charge(n); err != nil {
			panic(stopError{})
		}
	}
}

// charge spends fuel for n bytes or elements of work.
func (m *interp) charge(n int) {
	m.steps += int64(n)
	if m.steps >= 256 {
		m.flushFuel()
	}
}

// grow models memory held by arrays and buffers.
func (m *interp) grow(n int64) {
	m.memPend += n
	if m.memPend >= 16<<10 {
		rel, err := m.inv.Sys.Reserve(m.memPend)
		if err != nil {
			panic(stopError{})
		}
		m.release = append(m.release, rel)
		m.memPend = 0
	}
}

// ---- variables

func (m *interp) cellOf(r *varRef) *cell {
	if r.local {
		return &m.frame[r.idx]
	}
	return &m.globals[r.idx]
}

func (m *interp) arrayOf(r *varRef) *array {
	return m.arrayCell(m.cellOf(r), r.name)
}

func (m *interp) arrayCell(c *cell, name string) *array {
	if c.arr != nil {
		return c.arr
	}
	if c.v.k != kUninit {
		m.fatal("attempt to use scalar `%s' as an array", name)
	}
	if c.ref != nil {
		c.arr = m.arrayCell(c.ref, name)
		return c.arr
	}
	c.arr = newArray()
	return c.arr
}

func (m *interp) getVar(r *varRef) value {
	if !r.local && r.idx < nSpecial {
		switch r.idx {
		case vNF:
			m.split()
			return num(float64(m.nf))
		case vENVIRON, vARGV, vPROCINFO:
			m.fatal("attempt to use array `%s' in a scalar context", r.name)
		}
	}
	c := m.cellOf(r)
	if c.arr != nil {
		m.fatal("attempt to use array `%s' in a scalar context", r.name)
	}
	return c.v
}

func (m *interp) setVar(r *varRef, v value) {
	c := m.cellOf(r)
	if c.arr != nil {
		m.fatal("attempt to use array `%s' in a scalar context", r.name)
	}
	if !r.local && r.idx < nSpecial {
		m.setSpecial(r.idx, v)
		return
	}
	c.v = v
}

func (m *interp) setSpecial(idx int, v value) {
	if idx == vNF {
		m.setNF(int(v.num()))
		return
	}
	if idx == vENVIRON || idx == vARGV || idx == vPROCINFO {
		m.fatal("attempt to use array `%s' in a scalar context", specialNames[idx])
	}
	m.globals[idx].v = v
	s := func() string { return m.toStr(v) }
	switch idx {
	case vFS:
		m.fs, m.fpat = s(), ""
	case vFPAT:
		m.fpat = s()
	case vOFS:
		m.ofs = s()
	case vORS:
		m.ors = s()
	case vRS:
		m.rs = s()
	case vSUBSEP:
		m.subsep = s()
	case vCONVFMT:
		m.convfmt = s()
	case vOFMT:
		m.ofmt = s()
	case vIGNORECASE:
		m.icase = v.bool()
	}
}

func (m *interp) toStr(v value) string {
	switch v.k {
	case kStr, kStrNum:
		return v.s
	case kNum:
		return numToStr(v.n, m.convfmt)
	}
	return ""
}

func (m *interp) toOutStr(v value) string {
	if v.k == kNum {
		return numToStr(v.n, m.ofmt)
	}
	return m.toStr(v)
}

// ---- fields

func (m *interp) setRecord(s string) {
	m.record = s
	m.recFS, m.recFPAT = m.fs, m.fpat
	m.fieldsValid = false
}

func (m *interp) split() {
	if m.fieldsValid {
		return
	}
	if m.recFPAT != "" {
		// fields are the successive matches of FPAT (gawk)
		m.fields = m.fields[:0]
		m.charge(len(m.record))
		if m.record != "" {
			for _, loc := range m.regex(m.recFPAT).FindAllStringIndex(m.record, -1) {
				m.fields = append(m.fields, m.record[loc[0]:loc[1]])
			}
		}
	} else {
		m.fields = m.splitFields(m.record, m.recFS, m.fields[:0], m.rs == "")
	}
	m.nf = len(m.fields)
	m.fieldsValid = true
}

// splitFields splits s by the field separator fs. In paragraph mode
// (RS="") newlines also separate fields.
func (m *interp) splitFields(s, fs string, out []string, paragraph bool) []string {
	m.charge(len(s))
	switch {
	case fs == " ":
		return append(out, strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })...)
	case s == "":
		return out
	case fs == "":
		for _, r := range s {
			out = append(out, string(r))
		}
		return out
	}
	if paragraph && fs != "\n" {
		// newline separates fields in addition to FS
		for i, line := range strings.Split(s, "\n") {
			_ = i
			out = m.splitFields(line, fs, out, false)
		}
		return out
	}
	if utf8.RuneCountInString(fs) == 1 {
		// a single character other than space is literal
		return append(out, strings.Split(s, fs)...)
	}
	re := m.regex(fs)
	locs := re.FindAllStringIndex(s, -1)
	last := 0
	for _, loc := range locs {
		if loc[1] == loc[0] {
			continue
		}
		out = append(out, s[last:loc[0]])
		last = loc[1]
	}
	return append(out, s[last:])
}

func (m *interp) getField(i int) value {
	if i == 0 {
		return strnum(m.record)
	}
	if i < 0 {
		m.fatal("attempt to access field %d", i)
	}
	m.split()
	if i > m.nf {
		// a field past NF is the null string, not an uninitialized value
		return str("")
	}
	return strnum(m.fields[i-1])
}

func (m *interp) setField(i int, s string) {
	if i == 0 {
		m.setRecord(s)
		return
	}
	if i < 0 {
		m.fatal("attempt to access field %d", i)
	}
	m.split()
	for m.nf < i {
		m.fields = append(m.fields, "")
		m.nf++
	}
	m.fields[i-1] = s
	m.rebuild()
}

func (m *interp) setNF(n int) {
	m.split()
	if n < 0 {
		m.fatal("NF set to negative value")
	}
	for m.nf < n {
		m.fields = append(m.fields, "")
		m.nf++
	}
	m.fields = m.fields[:n]
	m.nf = n
	m.rebuild()
}

func (m *interp) rebuild() {
	m.record = strings.Join(m.fields[:m.nf], m.ofs)
	m.charge(len(m.record))
}

// ---- regexes

func (m *interp) regex(src string) *posixre.Regexp {
	key := src
	if m.icase {
		key = "\x00i" + src
	}
	if re, ok := m.regexCache[key]; ok {
		return re
	}
	m.charge(len(src) * 4)
	re, err := posixre.Compile(src, posixre.Options{Flavor: posixre.Awk, ICase: m.icase, DotNL: true,
		// The backtracking matcher (\< and \> beside non-letters) is
		// metered like the rest of the program.
		Fuel:   func(n int64) error { m.charge(int(n)); return nil },
		GiveUp: func(err error) { m.fatal("regexp /%s/: %s", src, err) }})
	if err != nil {
		m.fatal("invalid regexp: %s: /%s/", err, src)
	}
	if len(m.regexCache) > 500 {
		m.regexCache = map[string]*posixre.Regexp{}
	}
	m.regexCache[key] = re
	return re
}

func (m *interp) regexOf(e expr) *posixre.Regexp {
	if r, ok := e.(*regexLit); ok {
		return m.regex(r.src)
	}
	return m.regex(m.toStr(m.eval(e)))
}

// ---- evaluation

func (m *interp) subscript(subs []expr) string {
	if len(subs) == 1 {
		return m.toStr(m.eval(subs[0]))
	}
	parts := make([]string, len(subs))
	for i, s := range subs {
		parts[i] = m.toStr(m.eval(s))
	}
	return strings.Join(parts, m.subsep)
}

func (m *interp) eval(e expr) value {
	m.tick()
	switch e := e.(type) {
	case *numLit:
		return num(e.v)
	case *strLit:
		return str(e.s)
	case *regexLit:
		return boolean(m.regexOf(e).MatchString(m.record))
	case *groupExpr:
		return m.eval(e.x)
	case *varRef:
		return m.getVar(e)
	case *fieldRef:
		return m.getField(m.fieldIndex(e))
	case *indexExpr:
		arr := m.arrayOf(e.arr)
		k := m.subscript(e.subs)
		p, created := arr.ref(k)
		if created {
			m.grow(int64(len(k) + 48))
		}
		return *p
	case *assignExpr:
		return m.assign(e)
	case *condExpr:
		if m.eval(e.c).bool() {
			return m.eval(e.a)
		}
		return m.eval(e.b)
	case *andExpr:
		return boolean(m.eval(e.l).bool() && m.eval(e.r).bool())
	case *orExpr:
		return boolean(m.eval(e.l).bool() || m.eval(e.r).bool())
	case *matchExpr:
		s := m.toStr(m.eval(e.l))
		re := m.regexOf(e.re)
		m.charge(len(s))
		return boolean(re.MatchString(s) != e.neg)
	case *inExpr:
		arr := m.arrayOf(e.arr)
		_, ok := arr.get(m.subscript(e.subs))
		return boolean(ok)
	case *unaryExpr:
		v := m.eval(e.x)
		switch e.op {
		case tNot:
			return boolean(!v.bool())
		case tMinus:
			return num(-v.num())
		}
		return num(v.num())
	case *binaryExpr:
		return m.binary(e)
	case *incDecExpr:
		old := m.eval(e.x).num()
		m.store(e.x, num(old+e.delta))
		if e.pre {
			return num(old + e.delta)
		}
		return num(old)
	case *callExpr:
		return m.call(e)
	case *builtinExpr:
		return m.builtin(e)
	case *getlineExpr:
		return m.getline(e)
	}
	panic(fmt.Sprintf("awk: unknown expression %T", e))
}

func (m *interp) fieldIndex(f *fieldRef) int {
	n := m.eval(f.index).num()
	if n < 0 {
		m.fatal("attempt to access field %d", int(n))
	}
	if n > 1e7 {
		m.fatal("field index %g too large", n)
	}
	return int(n)
}

// store assigns to an lvalue.
func (m *interp) store(lhs expr, v value) {
	switch l := lhs.(type) {
	case *varRef:
		m.setVar(l, v)
	case *fieldRef:
		m.setField(m.fieldIndex(l), m.toStr(v))
	case *indexExpr:
		arr := m.arrayOf(l.arr)
		k := m.subscript(l.subs)
		if arr.set(k, v) {
			m.grow(int64(len(k) + 48))
		}
	case *groupExpr:
		m.store(l.x, v)
	}
}

func (m *interp) assign(e *assignExpr) value {
	if e.op == tAssign {
		v := m.eval(e.rhs)
		if v.k == kUninit {
			v = value{}
		}
		switch l := e.lhs.(type) {
		case *fieldRef:
			i := m.fieldIndex(l)
			s := m.toStr(v)
			m.setField(i, s)
			if i == 0 {
				return strnum(s)
			}
			return v
		case *indexExpr:
			// evaluate the subscript after the value, as gawk does
			arr := m.arrayOf(l.arr)
			k := m.subscript(l.subs)
			if arr.set(k, v) {
				m.grow(int64(len(k) + 48))
			}
			return v
		}
		m.store(e.lhs, v)
		return v
	}
	// op-assign: evaluate the lvalue once
	var get func() value
	var set func(value)
	switch l := e.lhs.(type) {
	case *varRef:
		get = func() value { return m.getVar(l) }
		set = func(v value) { m.setVar(l, v) }
	case *fieldRef:
		i := m.fieldIndex(l)
		get = func() value { return m.getField(i) }
		set = func(v value) { m.setField(i, m.toStr(v)) }
	case *indexExpr:
		arr := m.arrayOf(l.arr)
		k := m.subscript(l.subs)
		get = func() value {
			p, created := arr.ref(k)
			if created {
				m.grow(int64(len(k) + 48))
			}
			return *p
		}
		set = func(v value) { arr.set(k, v) }
	}
	r := m.eval(e.rhs).num()
	l := get().num()
	var n float64
	switch e.op {
	case tAddAssign:
		n = l + r
	case tSubAssign:
		n = l - r
	case tMulAssign:
		n = l * r
	case tDivAssign:
		if r == 0 {
			m.fatal("division by zero in `/='")
		}
		n = l / r
	case tModAssign:
		if r == 0 {
			m.fatal("division by zero attempted in `%%='")
		}
		n = math.Mod(l, r)
	case tPowAssign:
		n = pow(l, r)
	}
	set(num(n))
	return num(n)
}

func pow(a, b float64) float64 {
	if b == math.Trunc(b) && math.Abs(b) < 1024 {
		// exact repeated multiplication for integer exponents, like gawk
		n := int(math.Abs(b))
		r := 1.0
		x := a
		for n > 0 {
			if n&1 == 1 {
				r *= x
			}
			x *= x
			n >>= 1
		}
		if b < 0 {
			return 1 / r
		}
		return r
	}
	return math.Pow(a, b)
}

func (m *interp) binary(e *binaryExpr) value {
	if e.op == tString {
		l := m.toStr(m.eval(e.l))
		r := m.toStr(m.eval(e.r))
		m.charge(len(l) + len(r))
		return str(l + r)
	}
	lv := m.eval(e.l)
	rv := m.eval(e.r)
	switch e.op {
	case tPlus:
		return num(lv.num() + rv.num())
	case tMinus:
		return num(lv.num() - rv.num())
	case tMul:
		return num(lv.num() * rv.num())
	case tDiv:
		d := rv.num()
		if d == 0 {
			m.fatal("division by zero attempted")
		}
		return num(lv.num() / d)
	case tMod:
		d := rv.num()
		if d == 0 {
			m.fatal("division by zero attempted in `%%'")
		}
		return num(math.Mod(lv.num(), d))
	case tPow:
		return num(pow(lv.num(), rv.num()))
	}
	// comparisons
	var c int
	if lv.isNumeric() && rv.isNumeric() {
		a, b := lv.num(), rv.num()
		switch {
		case a < b:
			c = -1
		case a > b:
			c = 1
		case a == b:
			c = 0
		default: // NaN
			return boolean(e.op == tNE)
		}
	} else if m.icase {
		c = strings.Compare(strings.ToLower(m.toStr(lv)), strings.ToLower(m.toStr(rv)))
	} else {
		c = strings.Compare(m.toStr(lv), m.toStr(rv))
	}
	switch e.op {
	case tLT:
		return boolean(c < 0)
	case tLE:
		return boolean(c <= 0)
	case tGT:
		return boolean(c > 0)
	case tGE:
		return boolean(c >= 0)
	case tEQ:
		return boolean(c == 0)
	case tNE:
		return boolean(c != 0)
	}
	panic("awk: bad operator")
}

func (m *interp) call(e *callExpr) value {
	f := e.fn
	if m.depth > 10000 {
		m.fatal("function `%s': call nesting too deep", f.name)
	}
	frame := make([]cell, len(f.params))
	for i, a := range e.args {
		if r, ok := a.(*varRef); ok {
			c := m.cellOf(r)
			switch {
			case c.arr != nil:
				frame[i].arr = c.arr
			case c.v.k == kUninit && (r.local || r.idx >= nSpecial):
				frame[i].ref = c
			default:
				frame[i].v = m.getVar(r)
			}
			continue
		}
		frame[i].v = m.eval(a)
	}
	m.grow(int64(len(frame) * 32))
	saved := m.frame
	m.frame = frame
	m.depth++
	m.retval = value{}
	ct := m.execBlock(f.body)
	m.depth--
	m.frame = saved
	switch ct {
	case cReturn:
		v := m.retval
		m.retval = value{}
		return v
	case cNext, cNextFile, cExit:
		panic(ct)
	}
	return value{}
}

// ---- statements

func (m *interp) execBlock(b blockStmt) ctrl {
	for _, s := range b {
		if c := m.exec(s); c != cNone {
			return c
		}
	}
	return cNone
}

func (m *interp) exec(s stmt) ctrl {
	m.tick()
	switch s := s.(type) {
	case blockStmt:
		return m.execBlock(s)
	case *exprStmt:
		m.eval(s.x)
	case *printStmt:
		m.print(s)
	case *ifStmt:
		if m.eval(s.c).bool() {
			return m.exec(s.then)
		} else if s.els != nil {
			return m.exec(s.els)
		}
	case *whileStmt:
		for m.eval(s.c).bool() {
			switch c := m.exec(s.body); c {
			case cBreak:
				return cNone
			case cContinue, cNone:
			default:
				return c
			}
		}
	case *doStmt:
		for {
			switch c := m.exec(s.body); c {
			case cBreak:
				return cNone
			case cContinue, cNone:
			default:
				return c
			}
			if !m.eval(s.c).bool() {
				break
			}
		}
	case *forStmt:
		if s.init != nil {
			m.exec(s.init)
		}
		for s.c == nil || m.eval(s.c).bool() {
			switch c := m.exec(s.body); c {
			case cBreak:
				return cNone
			case cContinue, cNone:
			default:
				return c
			}
			if s.post != nil {
				m.exec(s.post)
			}
		}
	case *forInStmt:
		arr := m.arrayOf(s.arr)
		keys := arr.keys()
		m.charge(len(keys))
		m.sortedIn(arr, keys)
		for _, k := range keys {
			if _, ok := arr.get(k); !ok {
				continue
			}
			m.store(s.v, strnum(k))
			switch c := m.exec(s.body); c {
			case cBreak:
				return cNone
			case cContinue, cNone:
			default:
				return c
			}
		}
	case *nextStmt:
		if m.inEnd || m.main == nil && !m.mainStarted() {
			m.fatal("`next' used in BEGIN or END action")
		}
		return cNext
	case *nextfileStmt:
		return cNextFile
	case *exitStmt:
		if s.x != nil {
			m.exitCode = int(int64(m.eval(s.x).num()))
		}
		return cExit
	case *returnStmt:
		if s.x != nil {
			m.retval = m.eval(s.x)
		} else {
			m.retval = value{}
		}
		return cReturn
	case *breakStmt:
		return cBreak
	case *continueStmt:
		return cContinue
	case *deleteStmt:
		arr := m.arrayOf(s.arr)
		if s.subs == nil {
			arr.clear()
		} else {
			arr.delete(m.subscript(s.subs))
		}
	default:
		panic(fmt.Sprintf("awk: unknown statement %T", s))
	}
	return cNone
}

func (m *interp) mainStarted() bool { return m.argIdx > 0 || m.usedFile }

func (m *interp) print(s *printStmt) {
	var out string
	if s.printf {
		if len(s.args) == 0 {
			m.fatal("printf: no arguments")
		}
		args := make([]value, len(s.args)-1)
		for i, a := range s.args[1:] {
			args[i] = m.eval(a)
		}
		out = sprintf(m.toStr(m.eval(s.args[0])), args, m.toStr)
	} else if len(s.args) == 0 {
		out = m.record + m.ors
	} else {
		var b strings.Builder
		for i, a := range s.args {
			if i > 0 {
				b.WriteString(m.ofs)
			}
			b.WriteString(m.toOutStr(m.eval(a)))
		}
		b.WriteString(m.ors)
		out = b.String()
	}
	m.charge(len(out))
	if s.redir == 0 {
		m.writeStdout(out)
		return
	}
	dest := m.toStr(m.eval(s.dest))
	m.output(s.redir, dest).write(m, out)
}

func (m *interp) writeStdout(s string) {
	if _, err := m.stdout.WriteString(s); err != nil {
		panic(stopError{})
	}
}

func (m *interp) flushStdout() {
	if err := m.stdout.Flush(); err != nil {
		panic(stopError{})
	}
}

// ---- input

// recordReader splits a byte stream into records by RS.
type recordReader struct {
	r    *bufio.Reader
	all  []byte // regex mode: the rest of the input
	read bool
}

func newRecordReader(r io.Reader) *recordReader {
	if br, ok := r.(*bufio.Reader); ok {
		return &recordReader{r: br}
	}
	return &recordReader{r: bufio.NewReader(r)}
}

// next returns the next record and its terminator.
func (m *interp) nextRecord(rr *recordReader) (string, bool) {
	rs := m.rs
	switch {
	case rs == "":
		// paragraph mode: skip leading newlines, stop at a blank line
		for {
			c, err := rr.r.ReadByte()
			if err != nil {
				return "", false
			}
			if c != '\n' {
				rr.r.UnreadByte()
				break
			}
		}
		var b strings.Builder
		for {
			line, err := rr.r.ReadString('\n')
			m.charge(len(line))
			if line == "\n" {
				break
			}
			if strings.HasSuffix(line, "\n") {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(line[:len(line)-1])
				continue
			}
			if line != "" {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(line)
			}
			if err != nil {
				break
			}
		}
		// swallow further blank lines
		for {
			c, err := rr.r.ReadByte()
			if err != nil {
				break
			}
			if c != '\n' {
				rr.r.UnreadByte()
				break
			}
		}
		m.globals[vRT].v = str("\n\n")
		return b.String(), true
	case len(rs) == 1 || (utf8.RuneCountInString(rs) == 1):
		if len(rs) > 1 {
			return m.regexRecord(rr, regexp.QuoteMeta(rs))
		}
		line, err := rr.r.ReadString(rs[0])
		m.charge(len(line))
		if line == "" && err != nil {
			return "", false
		}
		if strings.HasSuffix(line, rs) {
			m.globals[vRT].v = str(rs)
			return line[:len(line)-1], true
		}
		m.globals[vRT].v = str("")
		return line, true
	}
	return m.regexRecord(rr, rs)
}

func (m *interp) regexRecord(rr *recordReader, rs string) (string, bool) {
	if !rr.read {
		data, _ := io.ReadAll(rr.r)
		m.charge(len(data))
		m.grow(int64(len(data)))
		rr.all, rr.read = data, true
	}
	if len(rr.all) == 0 {
		return "", false
	}
	re := m.regex(rs)
	for _, loc := range re.FindAllIndex(rr.all, -1) {
		if loc[1] == loc[0] {
			continue
		}
		rec := string(rr.all[:loc[0]])
		m.globals[vRT].v = str(string(rr.all[loc[0]:loc[1]]))
		rr.all = rr.all[loc[1]:]
		return rec, true
	}
	rec := string(rr.all)
	rr.all = nil
	m.globals[vRT].v = str("")
	return rec, true
}

// nextMain reads the next record of the main input, opening operands
// from ARGV as needed.
func (m *interp) nextMain() (string, bool) {
	for {
		if m.main == nil {
			if !m.openNextMain() {
				return "", false
			}
		}
		rec, ok := m.nextRecord(m.main)
		if ok {
			return rec, true
		}
		m.closeMain()
	}
}

func (m *interp) closeMain() {
	if m.mainFile != nil {
		m.mainFile.Close()
		m.mainFile = nil
	}
	m.main = nil
}

func (m *interp) openNextMain() bool {
	if m.mainDone {
		return false
	}
	argv := m.globals[vARGV].arr
	for {
		m.argIdx++
		argc := int(m.globals[vARGC].v.num())
		if m.argIdx >= argc {
			if !m.usedFile {
				m.usedFile = true
				m.main = newRecordReader(m.stdin)
				m.globals[vFNR].v = num(0)
				m.globals[vFILENAME].v = str("-") // as gawk reports standard input
				return true
			}
			m.mainDone = true
			return false
		}
		v, ok := argv.get(strconv.Itoa(m.argIdx))
		if !ok {
			continue
		}
		arg := m.toStr(v)
		if arg == "" {
			continue
		}
		if name, val, ok := isAssignment(arg); ok {
			m.assignOperand(name, val)
			continue
		}
		m.usedFile = true
		m.globals[vFILENAME].v = str(arg)
		m.globals[vFNR].v = num(0)
		if arg == "-" || arg == "/dev/stdin" {
			m.main = newRecordReader(m.stdin)
			return true
		}
		p := m.inv.Abs(arg)
		fi, err := m.inv.FS.Stat(p)
		if err == nil && fi.IsDir() {
			m.warn("command line argument `%s' is a directory: skipped", arg)
			continue
		}
		var f command.File
		if err == nil {
			f, err = m.inv.FS.Open(p)
		}
		if err != nil {
			m.flushStdout()
			panic(&fatalError{msg: fmt.Sprintf("cannot open file `%s' for reading: %s", arg, command.Message(err)), noLoc: true})
		}
		m.mainFile = f
		m.main = newRecordReader(f)
		return true
	}
}

func (m *interp) warn(format string, a ...any) {
	m.flushStdout()
	fmt.Fprintf(m.inv.Stderr, "%s: warning: %s\n", progName(m.inv), fmt.Sprintf(format, a...))
}

func progName(inv *command.Invocation) string {
	name := inv.Args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// isAssignment recognises a var=value operand.
func isAssignment(arg string) (string, string, bool) {
	eq := strings.IndexByte(arg, '=')
	if eq <= 0 || !isAlpha(arg[0]) {
		return "", "", false
	}
	for i := 1; i < eq; i++ {
		if !isAlpha(arg[i]) && !isDigit(arg[i]) {
			return "", "", false
		}
	}
	if _, kw := keywords[arg[:eq]]; kw || builtins[arg[:eq]] {
		return "", "", false
	}
	return arg[:eq], arg[eq+1:], true
}

// assignOperand performs a -v or command-line assignment; escape
// sequences in the value are processed as in string literals.
func (m *interp) assignOperand(name, val string) {
	var b strings.Builder
	for i := 0; i < len(val); {
		if val[i] == '\\' && i+1 < len(val) {
			i++
			unescape(val, &i, &b, '"')
			continue
		}
		b.WriteByte(val[i])
		i++
	}
	if _, isFunc := m.prog.funcs[name]; isFunc {
		m.fatal("cannot use function `%s' as variable name", name)
	}
	idx, ok := m.prog.globals[name]
	if !ok {
		// the program never mentions it, so nothing can observe it
		return
	}
	m.setVar(&varRef{name: name, idx: idx}, strnum(b.String()))
}
