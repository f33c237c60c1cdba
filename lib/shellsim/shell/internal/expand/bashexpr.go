package expand

// ShellSim: an arithmetic evaluator over text, as bash evaluates $((...)),
// ((...)) and let: the expression is expanded first, then tokenized and
// evaluated in one pass. It gives bash's diagnostics ("EXPR: MSG (error
// token is "TOK")") for expressions the AST parser rejects, whose errors
// bash reports only when the line runs, and for run-time errors.

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// ArithError is a bash arithmetic error. Prefix is the command that
// evaluated it ("((", "let", "[[") or empty for $((...)).
type ArithError struct {
	Prefix, Expr, Msg, Token string
	// Subscript marks an error in an array subscript or in a value
	// assigned to an integer variable, which ends a bash -c string.
	Subscript bool
}

// subscript evaluates an indexed array's subscript.
func (cfg *Config) subscript(idx syntax.ArithmExpr) (int, error) {
	n, err := cfg.arithmTop(idx, syntax.Pos{}, syntax.Pos{}, "")
	return n, MarkSubscript(err)
}

// MarkSubscript marks an arithmetic error as one in a subscript.
func MarkSubscript(err error) error {
	if ae, ok := err.(ArithError); ok {
		ae.Subscript = true
		return ae
	}
	return err
}

func (e ArithError) Error() string {
	p := ""
	if e.Prefix != "" {
		p = e.Prefix + ": "
	}
	return fmt.Sprintf("%s%s: %s (error token is \"%s\")", p, e.Expr, e.Msg, e.Token)
}

// DeferredArithMarker begins the first literal of an arithmetic operand
// whose text (the rest of the word) the parser rejected; it is evaluated
// as text when it runs. BadSubstMarker begins the name of a parameter
// expansion the parser rejected (its source text follows), which fails
// with "bad substitution" when it runs; FatalSubstMarker likewise, with
// a FatalSubstError. Source text cannot hold NUL.
const (
	DeferredArithMarker = "\x00arith\x00"
	BadSubstMarker      = "\x00badsubst\x00"
	FatalSubstMarker    = "\x00fatalsubst\x00"
	// BadSubscriptMarker begins the subscript of an assignment the parser
	// rejected as empty (m[]=1); the assignment's text follows.
	BadSubscriptMarker = "\x00badsubscript\x00"
)

// SubscriptError is an assignment to an empty subscript (m[]=1), which
// bash fails as a bad subscript when it runs.
type SubscriptError struct{ Text string }

func (e SubscriptError) Error() string { return e.Text + ": bad array subscript" }

// BadSubscript reports the SubscriptError of a subscript the parser
// rejected, if idx is one.
func BadSubscript(idx syntax.ArithmExpr) error {
	w, ok := idx.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return nil
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, BadSubscriptMarker) {
		return SubscriptError{Text: l.Value[len(BadSubscriptMarker):]}
	}
	return nil
}

// maxExprRecursion is bash's MAX_EXPR_RECURSION_LEVEL.
const maxExprRecursion = 1024

// token kinds besides single-byte operators
const (
	tEOF = iota + 256
	tNum
	tStr
	tEq     // ==
	tNeq    // !=
	tLeq    // <=
	tGeq    // >=
	tLand   // &&
	tLor    // ||
	tShl    // <<
	tShr    // >>
	tPow    // **
	tPreInc // ++x
	tPreDec
	tPostInc // x++
	tPostDec
	tOpAssign // +=, <<= ... (op in assignOp)
)

type exprState struct {
	cfg    *Config
	dry    bool // evaluate without assigning (to reproduce a message)
	expr   string
	pos    int // next byte to read
	tp     int // start of the current token
	lasttp int // start of the last token read before end of input
	tok    int
	lastok int
	val    int64
	name   string // tStr: the variable reference text
	sub    string // tStr: subscript text, with hasSub
	hasSub bool
	lval   struct {
		name, sub string
		hasSub    bool
	}
	assignOp int
	noeval   int
	peeks    int // nested look-aheads after names
	ntok     int // tokens read (an assignment's target is one name)
}

// maxPeek bounds the chain of look-aheads a run of names makes.
const maxPeek = 256

type exprAbort struct{ err error }

// ArithString evaluates expr as bash does; with dry set, assignments are
// computed but not stored.
func ArithString(cfg *Config, expr string, dry bool) (int64, error) {
	cfg = prepareConfig(cfg)
	return cfg.arithString(expr, dry)
}

func (cfg *Config) arithString(expr string, dry bool) (v int64, err error) {
	if strings.TrimLeft(expr, " \t\n") == "" {
		return 0, nil
	}
	if cfg.arithDepth >= maxExprRecursion-1 {
		return 0, ArithError{Expr: expr, Msg: "expression recursion level exceeded", Token: expr}
	}
	if command.CheckSyntaxNest(expr) != nil {
		// deeper than the host stack allows a recursive descent
		return 0, fmt.Errorf("%s: expression recursion level exceeded", strings.TrimSpace(expr))
	}
	cfg.arithDepth++
	defer func() { cfg.arithDepth-- }()
	st := &exprState{cfg: cfg, dry: dry, expr: expr}
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(exprAbort)
			if !ok {
				panic(r)
			}
			err = a.err
		}
	}()
	st.next()
	v = st.comma()
	if st.tok != tEOF {
		st.lasttp = st.tp // the token itself, after any newlines
		st.fail("syntax error in expression")
	}
	return v, nil
}

func (st *exprState) fail(msg string) {
	e := strings.TrimLeft(st.expr, " \t")
	tok := ""
	if st.lasttp < len(st.expr) {
		tok = st.expr[st.lasttp:]
	}
	panic(exprAbort{ArithError{Expr: e, Msg: msg, Token: tok}})
}

func (st *exprState) abort(err error) { panic(exprAbort{err}) }

func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameByte(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

// next reads the next token, like bash's readtok.
func (st *exprState) next() {
	st.ntok++
	s, i := st.expr, st.pos
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	// bash's error token begins at a newline before the token
	last := i
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	if i >= len(s) {
		st.lastok, st.tok, st.tp, st.pos = st.tok, tEOF, i, i
		return
	}
	st.lastok = st.tok
	st.tp, st.lasttp = i, last
	c := s[i]
	switch {
	case isNameStart(c):
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		st.name, st.hasSub, st.sub = s[i:j], false, ""
		if j < len(s) && s[j] == '[' {
			depth, k := 0, j
			for ; k < len(s); k++ {
				if s[k] == '[' {
					depth++
				} else if s[k] == ']' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if k >= len(s) {
				st.pos = len(s)
				st.fail("bad array subscript")
			}
			st.hasSub, st.sub = true, s[j+1:k]
			j = k + 1
		}
		st.tok, st.pos = tStr, j
		// Like bash, peek at the next token (its errors come first), then
		// evaluate the variable now unless it is being assigned.
		peek := 0
		if st.peeks < maxPeek {
			saved := *st
			st.peeks++
			st.noeval++
			st.next()
			peek = st.tok
			*st = saved
		}
		st.val = 0
		if peek != '=' || st.lastok == tPreInc || st.lastok == tPreDec {
			st.val = st.load(st.name, st.sub, st.hasSub)
		}
		return
	case c >= '0' && c <= '9':
		j := i
		for j < len(s) && (isNameByte(s[j]) || s[j] == '#' || s[j] == '@') {
			j++
		}
		st.pos = j
		n, msg := bashNumber(s[i:j])
		if msg != "" {
			// bash's text ends with the bad constant, which is the token
			panic(exprAbort{ArithError{Expr: strings.TrimLeft(s[:j], " \t"), Msg: msg, Token: s[i:j]}})
		}
		st.tok, st.val = tNum, n
		return
	}
	i++
	var c1 byte
	if i < len(s) {
		c1 = s[i]
	}
	tok := int(c)
	two := func(t int) { tok = t; i++ }
	switch {
	case c == '=' && c1 == '=':
		two(tEq)
	case c == '!' && c1 == '=':
		two(tNeq)
	case c == '<' && c1 == '=':
		two(tLeq)
	case c == '>' && c1 == '=':
		two(tGeq)
	case c == '&' && c1 == '&':
		two(tLand)
	case c == '|' && c1 == '|':
		two(tLor)
	case c == '<' && c1 == '<':
		two(tShl)
	case c == '>' && c1 == '>':
		two(tShr)
	case c == '*' && c1 == '*':
		two(tPow)
	case (c == '+' || c == '-') && c1 == c:
		if st.tok == tStr {
			two(pick(c == '+', tPostInc, tPostDec))
		} else {
			// A prefix operator only when an identifier follows; else
			// two unary signs, as in bash.
			k := i + 1
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n') {
				k++
			}
			if k < len(s) && isNameStart(s[k]) {
				two(pick(c == '+', tPreInc, tPreDec))
			}
		}
	case c1 == '=' && strings.IndexByte("*/%+-&^|", c) >= 0:
		st.assignOp = int(c)
		two(tOpAssign)
	}
	if tok == tShl || tok == tShr {
		if i < len(s) && s[i] == '=' {
			st.assignOp = tok
			tok = tOpAssign
			i++
		}
	}
	if tok < 256 && strings.IndexByte("=+-*/%&|^!~<>()?:,", byte(tok)) < 0 {
		// Where an operator is due this is an invalid operator; where an
		// operand is due the parser reports a missing operand.
		switch st.tok {
		case tNum, tStr, ')', tPostInc, tPostDec:
			st.pos, st.lasttp = i, st.tp
			st.fail("syntax error: invalid arithmetic operator")
		}
	}
	st.tok, st.pos = tok, i
}

// bashNumber converts a numeric constant as bash does: 0x and 0 prefixes
// choose bases 16 and 8; digits read before a '#' (in base 10) are the
// base of the digits after it; a-z, A-Z (36 up beyond base 36), @ and _
// are digits 10 to 63.
func bashNumber(t string) (int64, string) {
	s, base, prefixed := t, int64(10), false
	if len(s) > 1 && s[0] == '0' {
		if s[1] == 'x' || s[1] == 'X' {
			base, s = 16, s[2:]
		} else {
			base, s = 8, s[1:]
		}
		prefixed = true
	}
	var v int64
	afterHash, digits := false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '#' {
			if prefixed || afterHash {
				return 0, "invalid number"
			}
			if v < 2 || v > 64 {
				return 0, "invalid arithmetic base"
			}
			base, v, afterHash, digits = v, 0, true, 0
			continue
		}
		d := int64(99)
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c-'A') + 10
			if base > 36 {
				d += 26
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		}
		if d >= base {
			return 0, "value too great for base"
		}
		v = v*base + d
		digits++
	}
	if afterHash && digits == 0 {
		return 0, "invalid integer constant"
	}
	return v, ""
}

func (st *exprState) comma() int64 {
	v := st.assign()
	for st.tok == ',' {
		st.next()
		v = st.assign()
	}
	return v
}

func (st *exprState) assign() int64 {
	first := st.ntok
	v := st.cond()
	if st.tok != '=' && st.tok != tOpAssign {
		return v
	}
	if st.lastok != tStr || st.ntok != first+1 {
		st.fail("attempted assignment to non-variable")
	}
	lv := st.lval
	op := 0
	if st.tok == tOpAssign {
		op = st.assignOp
	}
	st.next()
	r := st.assign()
	if op != 0 {
		r = st.binop(op, v, r)
	}
	if st.noeval == 0 {
		st.store(lv.name, lv.sub, lv.hasSub, r)
	}
	return r
}

func (st *exprState) cond() int64 {
	c := st.lor()
	if st.tok != '?' {
		return c
	}
	st.next()
	if st.tok == tEOF || st.tok == ':' {
		st.fail("expression expected")
	}
	if c == 0 {
		st.noeval++
	}
	a := st.comma()
	if c == 0 {
		st.noeval--
	}
	if st.tok != ':' {
		if st.tok != tEOF {
			st.lasttp = st.tp
		}
		st.fail("`:' expected for conditional expression")
	}
	st.next()
	if st.tok == tEOF {
		st.fail("expression expected")
	}
	if c != 0 {
		st.noeval++
	}
	b := st.cond()
	if c != 0 {
		st.noeval--
		return a
	}
	return b
}

func (st *exprState) lor() int64 {
	v := st.land()
	for st.tok == tLor {
		if v != 0 {
			st.noeval++
		}
		st.next()
		r := st.land()
		if v != 0 {
			st.noeval--
		}
		v = b2i64(v != 0 || r != 0)
	}
	return v
}

func (st *exprState) land() int64 {
	v := st.bitLevel(0)
	for st.tok == tLand {
		if v == 0 {
			st.noeval++
		}
		st.next()
		r := st.bitLevel(0)
		if v == 0 {
			st.noeval--
		}
		v = b2i64(v != 0 && r != 0)
	}
	return v
}

// levels of left-associative binary operators, loosest first
var exprLevels = [][]int{
	{'|'}, {'^'}, {'&'}, {tEq, tNeq}, {tLeq, tGeq, '<', '>'}, {tShl, tShr}, {'+', '-'}, {'*', '/', '%'},
}

func (st *exprState) bitLevel(l int) int64 {
	if l == len(exprLevels) {
		return st.power()
	}
	v := st.bitLevel(l + 1)
	for in(st.tok, exprLevels[l]) {
		op := st.tok
		st.next()
		start := st.lasttp
		r := st.bitLevel(l + 1)
		if (op == '/' || op == '%') && r == 0 && st.noeval == 0 {
			// bash points at the divisor, not at the token after it
			st.lasttp = start
		}
		v = st.binop(op, v, r)
	}
	return v
}

func in(t int, set []int) bool {
	for _, x := range set {
		if t == x {
			return true
		}
	}
	return false
}

func (st *exprState) power() int64 {
	v := st.unary()
	if st.tok == tPow {
		st.next()
		r := st.power()
		return st.binop(tPow, v, r)
	}
	return v
}

func (st *exprState) binop(op int, a, b int64) int64 {
	switch op {
	case '+':
		return a + b
	case '-':
		return a - b
	case '*':
		return a * b
	case '/', '%':
		if b == 0 {
			if st.noeval == 0 {
				st.fail("division by 0")
			}
			return 0
		}
		if a == -1<<63 && b == -1 {
			if op == '/' {
				return a
			}
			return 0
		}
		if op == '/' {
			return a / b
		}
		return a % b
	case tPow:
		if b < 0 {
			// checked even where nothing is evaluated, as bash does
			st.fail("exponent less than 0")
		}
		p := int64(1)
		for ; b > 0; b >>= 1 {
			if b&1 != 0 {
				p *= a
			}
			a *= a
		}
		return p
	case tEq:
		return b2i64(a == b)
	case tNeq:
		return b2i64(a != b)
	case tLeq:
		return b2i64(a <= b)
	case tGeq:
		return b2i64(a >= b)
	case '<':
		return b2i64(a < b)
	case '>':
		return b2i64(a > b)
	case tShl:
		return a << (uint64(b) & 63)
	case tShr:
		return a >> (uint64(b) & 63)
	case '&':
		return a & b
	case '|':
		return a | b
	case '^':
		return a ^ b
	}
	return 0
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (st *exprState) unary() int64 {
	switch st.tok {
	case '!':
		st.next()
		return b2i64(st.unary() == 0)
	case '~':
		st.next()
		return ^st.unary()
	case '-':
		st.next()
		return -st.unary()
	case '+':
		st.next()
		return st.unary()
	case tPreInc, tPreDec:
		d := int64(1)
		if st.tok == tPreDec {
			d = -1
		}
		st.next()
		if st.tok != tStr {
			st.fail("identifier expected after pre-increment or pre-decrement")
		}
		name, sub, hasSub := st.name, st.sub, st.hasSub
		v := st.val + d
		if st.noeval == 0 {
			st.store(name, sub, hasSub, v)
		}
		st.next()
		if st.tok == tPostInc || st.tok == tPostDec {
			op := pick(st.tok == tPostInc, "++", "--")
			st.fail(op + ": assignment requires lvalue")
		}
		return v
	}
	return st.primary()
}

func (st *exprState) primary() int64 {
	switch st.tok {
	case '(':
		st.next()
		v := st.comma()
		if st.tok != ')' {
			if st.tok != tEOF {
				st.lasttp = st.tp
			}
			st.fail("missing `)'")
		}
		st.next()
		return v
	case tNum:
		v := st.val
		st.next()
		return v
	case tStr:
		name, sub, hasSub := st.name, st.sub, st.hasSub
		st.lval.name, st.lval.sub, st.lval.hasSub = name, sub, hasSub
		v := st.val // evaluated when the name was read
		st.next()
		if st.tok == tPostInc || st.tok == tPostDec {
			d := int64(1)
			if st.tok == tPostDec {
				d = -1
			}
			if st.noeval == 0 {
				st.store(name, sub, hasSub, v+d)
			}
			st.next()
		}
		return v
	}
	if st.tok != tEOF {
		// here bash's error token is the unexpected token itself, after
		// any newlines before it
		st.lasttp = st.tp
	}
	st.fail("syntax error: operand expected")
	return 0
}

// load reads a variable or element and evaluates its value as an
// expression when it is not a plain number.
func (st *exprState) load(name, sub string, hasSub bool) int64 {
	if st.noeval > 0 {
		return 0
	}
	var s string
	if t := strings.TrimSpace(sub); hasSub && (t == "@" || t == "*") && st.cfg.Warn != nil {
		// bash warns and reads 0
		st.cfg.Warn(name + "[" + sub + "]: bad array subscript")
		return 0
	}
	if hasSub {
		w, err := st.elemWord(name, sub)
		if err != nil {
			st.abort(err)
		}
		if s, err = Literal(st.cfg, w); err != nil {
			st.abort(err)
		}
	} else {
		if st.cfg.NoUnset {
			if vr := st.cfg.Env.Get(name); !vr.IsSet() {
				st.abort(UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: name}}, Message: "unbound variable"})
			}
		}
		s = st.cfg.envGet(name)
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return 0
	}
	if n, msg := bashNumber(t); msg == "" && t[0] >= '0' && t[0] <= '9' {
		return n
	}
	v, err := st.cfg.arithString(s, st.dry)
	if err != nil {
		st.abort(err)
	}
	return v
}

func (st *exprState) store(name, sub string, hasSub bool, v int64) {
	if st.dry {
		return
	}
	val := strconv.FormatInt(v, 10)
	var err error
	if hasSub {
		var w *syntax.Word
		if w, err = st.elemWord(name, sub); err == nil {
			pe := w.Parts[0].(*syntax.ParamExp)
			err = st.cfg.assignElem(name, st.cfg.Env.Get(name), pe.Index, val)
		}
	} else {
		err = st.cfg.envSet(name, val)
	}
	if err != nil {
		st.abort(err)
	}
}

// elemWord parses name[sub] into a parameter expansion the expander reads.
func (st *exprState) elemWord(name, sub string) (*syntax.Word, error) {
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader("${" + name + "[" + sub + "]}"))
	if err != nil || len(w.Parts) != 1 {
		return nil, fmt.Errorf("%s[%s]: bad array subscript", name, sub)
	}
	if _, ok := w.Parts[0].(*syntax.ParamExp); !ok {
		return nil, fmt.Errorf("%s[%s]: bad array subscript", name, sub)
	}
	return w, nil
}

// ArithmTop evaluates the expression of $((...)), ((...)) or a let
// argument; an arithmetic error is reported as bash words it, from the
// expression's text (laid out from the AST's positions, words expanded)
// evaluated again without assignments. right is where the text ends (the
// closing "))"), or invalid for a let argument.
func ArithmTop(cfg *Config, x syntax.ArithmExpr, left, right syntax.Pos, prefix string) (int, error) {
	return prepareConfig(cfg).arithmTop(x, left, right, prefix)
}

func (cfg *Config) arithmTop(x syntax.ArithmExpr, left, right syntax.Pos, prefix string) (int, error) {
	if !astSafe(x) {
		// Expansions, quotes or words that are not names or numbers:
		// bash substitutes the text, then evaluates it.
		text, ok, err := cfg.arithText(x, left, right, textRun)
		if err != nil {
			return 0, err // an expansion failed (its effects happened once)
		}
		if ok {
			n, err := cfg.arithString(text, false)
			if ae, ok := err.(ArithError); ok && ae.Prefix == "" {
				ae.Prefix = prefix
				err = ae
			}
			return int(n), err
		}
	}
	n, err := Arithm(cfg, x)
	if err == nil || !plainArithError(err) {
		if ae, ok := err.(ArithError); ok && ae.Prefix == "" {
			ae.Prefix = prefix
			return n, ae
		}
		return n, err
	}
	text, ok, _ := cfg.arithText(x, left, right, textDry)
	if !ok {
		if ae, isAE := err.(ArithError); isAE && ae.Prefix == "" {
			ae.Prefix = prefix
			return n, ae
		}
		return n, err
	}
	if _, derr := cfg.arithString(text, true); derr != nil {
		if ae, ok := derr.(ArithError); ok {
			ae.Prefix = prefix
			return n, ae
		}
	}
	if ae, ok := err.(ArithError); ok && ae.Prefix == "" {
		ae.Prefix = prefix
		return n, ae
	}
	return n, err
}

func plainArithError(err error) bool {
	switch msg := err.Error(); {
	case msg == "division by 0", msg == "exponent less than 0", msg == "attempted assignment to non-variable",
		strings.HasSuffix(msg, ": syntax error in expression"), strings.Contains(msg, "value too great for base"),
		strings.HasSuffix(msg, ": expression recursion level exceeded"),
		strings.Contains(msg, "invalid arithmetic base"), strings.Contains(msg, "invalid integer constant"):
		return true
	}
	return false
}

// textMode is how arithText renders words: expanded (textRun), expanded
// unless that would run a command again (textDry), or as written (textRaw).
type textMode int

const (
	textRun textMode = iota
	textDry
	textRaw
)

// arithWord renders one word of arithmetic text. Single quotes stay, as
// bash keeps them in the text it evaluates (where they are an error).
func (cfg *Config) arithWord(w *syntax.Word, mode textMode) (string, error) {
	if mode == textRaw {
		var b strings.Builder
		if err := syntax.NewPrinter().Print(&b, w); err != nil {
			return "", err
		}
		return b.String(), nil
	}
	var b strings.Builder
	for _, p := range w.Parts {
		if sq, ok := p.(*syntax.SglQuoted); ok && !sq.Dollar {
			b.WriteString("'" + sq.Value + "'")
			continue
		}
		s, err := Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{p}})
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// arithText rebuilds the source text of x: each token at its offset,
// whitespace between them kept as spaces, words expanded unless they hold
// a command substitution (expanding it again would run it twice).
func (cfg *Config) arithText(x syntax.ArithmExpr, left, right syntax.Pos, mode textMode) (string, bool, error) {
	var b strings.Builder
	var litErr error
	at, atLine := x.Pos().Offset(), x.Pos().Line()
	if left.IsValid() && left.Line() < atLine {
		// bash keeps the newlines before the expression (not the blanks
		// on the line of the opening parentheses)
		b.WriteString(strings.Repeat("\n", int(atLine-left.Line())))
		b.WriteString(strings.Repeat(" ", int(x.Pos().Col()-1)))
	}
	ok := true
	// pad lays out the blanks and newlines up to p (the text between
	// tokens is not in the tree; newlines are kept by line numbers)
	pad := func(p syntax.Pos) bool {
		off := p.Offset()
		if off < at {
			return false
		}
		if p.Line() > atLine && uint(p.Col()) <= off {
			lines := p.Line() - atLine
			lineStart := off - uint(p.Col()-1)
			if lineStart >= at+uint(lines) {
				b.WriteString(strings.Repeat(" ", int(lineStart-at-uint(lines))))
				b.WriteString(strings.Repeat("\n", int(lines)))
				b.WriteString(strings.Repeat(" ", int(p.Col()-1)))
				at, atLine = off, p.Line()
				return true
			}
		}
		b.WriteString(strings.Repeat(" ", int(off-at)))
		at = off
		return true
	}
	put := func(p syntax.Pos, s string) {
		if !pad(p) {
			ok = false
			return
		}
		b.WriteString(s)
		at = p.Offset() + uint(len(s))
	}
	var walk func(e syntax.ArithmExpr)
	walk = func(e syntax.ArithmExpr) {
		switch e := e.(type) {
		case *syntax.Word:
			if len(e.Parts) == 1 {
				// name[i] is text bash does not expand
				if pe, isPE := e.Parts[0].(*syntax.ParamExp); isPE && !pe.Dollar.IsValid() && pe.Index != nil {
					if idx, iok, ierr := cfg.arithText(pe.Index, syntax.Pos{}, syntax.Pos{}, mode); iok {
						put(e.Pos(), pe.Param.Value+"["+idx+"]")
						at, atLine = e.End().Offset(), e.End().Line()
					} else {
						ok, litErr = false, ierr
					}
					return
				}
			}
			syntax.Walk(e, func(n syntax.Node) bool {
				if _, isCmd := n.(*syntax.CmdSubst); isCmd && mode == textDry {
					ok = false
				}
				return ok
			})
			if !ok {
				return
			}
			s, err := cfg.arithWord(e, mode)
			if err != nil {
				ok, litErr = false, err
				return
			}
			if !pad(e.Pos()) {
				ok = false
				return
			}
			b.WriteString(s)
			at, atLine = e.End().Offset(), e.End().Line()
		case *syntax.ParenArithm:
			put(e.Lparen, "(")
			walk(e.X)
			put(e.Rparen, ")")
		case *syntax.UnaryArithm:
			if e.Post {
				walk(e.X)
				put(e.OpPos, e.Op.String())
			} else {
				put(e.OpPos, e.Op.String())
				walk(e.X)
			}
		case *syntax.BinaryArithm:
			walk(e.X)
			put(e.OpPos, e.Op.String())
			walk(e.Y)
		default:
			ok = false
		}
	}
	walk(x)
	if !ok {
		return "", false, litErr
	}
	if right.IsValid() && right.Offset() >= at {
		pad(right)
	}
	return b.String(), true, nil
}

// astSafe reports whether the tree evaluates the same as bash's text
// evaluation: its words are names, array elements with safe subscripts or
// numbers, and ++/-- apply to names.
// arithStart is where the text of $((...)) or $[...] begins.
func arithStart(e *syntax.ArithmExp) syntax.Pos {
	n := uint(3)
	if e.Bracket {
		n = 2
	}
	return syntax.NewPos(e.Left.Offset()+n, e.Left.Line(), e.Left.Col()+n)
}

func astSafe(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case *syntax.Word:
		if len(x.Parts) == 0 {
			return false
		}
		if m, ok := x.Parts[0].(*syntax.Lit); ok && m.Value == DeferredArithMarker {
			return true // text the parser rejected: Arithm evaluates it as text
		}
		if len(x.Parts) != 1 {
			return false
		}
		switch p := x.Parts[0].(type) {
		case *syntax.Lit:
			if p.Value == "" {
				return false
			}
			if syntax.ValidName(p.Value) {
				return true
			}
			_, msg := bashNumber(p.Value)
			return msg == "" && p.Value[0] >= '0' && p.Value[0] <= '9'
		case *syntax.ParamExp:
			return !p.Dollar.IsValid() && p.Param != nil && syntax.ValidName(p.Param.Value) && p.Index != nil &&
				p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Length && !p.Excl && astSafe(p.Index)
		}
		return false
	case *syntax.ParenArithm:
		return astSafe(x.X)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			w, ok := x.X.(*syntax.Word)
			if !ok || len(w.Parts) != 1 {
				return false
			}
			if lit, isLit := w.Parts[0].(*syntax.Lit); isLit {
				return syntax.ValidName(lit.Value)
			}
			return astSafe(w)
		}
		return astSafe(x.X)
	case *syntax.BinaryArithm:
		return astSafe(x.X) && astSafe(x.Y)
	}
	return false
}

// valueOf is the arithmetic value of a variable's text: a number, or an
// expression evaluated as bash does.
func (cfg *Config) valueOf(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	if n, err := strconv.ParseInt(t, 10, 64); err == nil && (t[0] != '0' || len(t) == 1) {
		return n, nil
	}
	return cfg.arithString(s, false)
}
