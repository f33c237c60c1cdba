package shell

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
)

// Deferred syntax errors. The parser checks arithmetic ($((...)), $[...],
// ((...)), let) and parameter expansions (${...}) while it parses, but bash
// checks them only when the line runs: the lines before run, then the
// error ends the line ($((...)), ${...}) or fails the command ((( )), let)
// with status 1. So a parse error inside such a construct is deferred: the
// construct is blanked out in the source (same length, newlines kept, so
// every other position is unchanged), the source is parsed again, and the
// construct's node is given back its text, to be checked when it runs.
// Genuine syntax errors (unclosed quotes, if without fi) stay parse errors.

// maxDeferred bounds the re-parses of one source (each is also charged
// as parsing).
const maxDeferred = 1024

type deferKind int

const (
	deferArith          deferKind = iota // $((...)), $[...]
	deferArithCmd                        // ((...))
	deferLet                             // an unquoted let argument
	deferParam                           // ${...}
	deferForPart                         // one expression of for ((init; cond; post))
	deferSubscript                       // name[...] in ${...} or an assignment
	deferTransform                       // ${name@op} with an unknown op, at span.op
	deferSliceNum                        // ${name:off:len} with a blank part, given a 0 at span.op
	deferEmptyLength                     // ${name:off:} (length 0), its second ':' at span.op
	deferEmptySubscript                  // name[]= in an assignment, blanked to name__=
	deferComsub                          // $((...) ...) whose command does not parse: parsed when it runs
	deferDeclName                        // declare 1x=2: an invalid name, blanked to _x=2
	deferSliceExpr                       // ${name:off:len} whose offset or length does not parse, each given a 0
	deferBareLet                         // the let keyword, blanked to a placeholder command name
)

type deferredSpan struct {
	kind      deferKind
	open, end int    // the construct's bytes: src[open:end]
	inner     string // its text between the brackets (the whole word for let)
	op        int    // deferTransform: the offset of its '@'
}

// deferrable reports parse errors that bash reports only at run time, in
// arithmetic or in a parameter expansion.
func deferrable(text string) (ok, arith bool) {
	for _, s := range []string{
		"must be followed by an expression", "not a valid arithmetic operator", "ternary operator missing",
		"must follow a name", "must be followed by a literal", "must follow an expression",
		"without matching `(` with `)`", "without matching `[` with `]`",
	} {
		if strings.Contains(text, s) {
			return true, true
		}
	}
	for _, s := range []string{
		"not a valid parameter expansion operator", "cannot combine multiple parameter expansion operators",
		"invalid @ expansion operator", "@ expansion operator requires a literal",
	} {
		if strings.Contains(text, s) {
			return true, false
		}
	}
	return false, false
}

// parseDeferring parses src, deferring arithmetic and substitution errors.
func (sh *Shell) parseDeferring(src, name string) (*syntax.File, error) {
	f, text, err := sh.parseDeferred(src, name)
	if err == nil && strings.Contains(text, "\\\n") {
		continuedArith(f, text)
	}
	return f, err
}

// parseDeferred is parseDeferring; text is the source in the
// coordinates of the tree's positions.
func (sh *Shell) parseDeferred(src, name string) (*syntax.File, string, error) {
	f, err := sh.rt.parser().Parse(strings.NewReader(src), name)
	if strings.IndexByte(src, 0) >= 0 || err == nil && len(letKeywords(f, src)) == 0 {
		return f, src, err
	}
	var subs []int // the "$(" of each $(( read as a command substitution
	if re, at, ok := dparenSubst(src); ok {
		// $((...) ...) is a command substitution of a subshell
		subs = at
		if f, err2 := sh.rt.parser().Parse(strings.NewReader(re), name); err2 == nil {
			return f, re, nil
		} else if sh.charge(int64(len(re))*resources.CostParseByte) != nil {
			return nil, "", err
		} else {
			src, err = re, err2
		}
	}
	var spans []deferredSpan
	work := []byte(src)
	// reparse parses work again with sp blanked; done: parseDeferred
	// returns the tree, or (over the parse budget) the error so far.
	var text string
	var done bool
	reparse := func(sp deferredSpan) (*syntax.File, string, error, bool) {
		spans = append(spans, sp)
		if sh.charge(int64(len(work))*resources.CostParseByte) != nil {
			return nil, "", err, true
		}
		f, perr := sh.rt.parser().Parse(strings.NewReader(string(work)), name)
		for perr == nil && len(spans) < maxDeferred {
			lets := letKeywords(f, string(work))
			if len(lets) == 0 {
				break
			}
			for _, l := range lets {
				blank(work, l)
			}
			spans = append(spans, lets...)
			if sh.charge(int64(len(work))*resources.CostParseByte) != nil {
				return nil, "", err, true
			}
			f, perr = sh.rt.parser().Parse(strings.NewReader(string(work)), name)
		}
		if perr != nil {
			return f, "", perr, false
		}
		restoreDeferred(f, spans, src)
		return f, src, nil, true
	}
	if err == nil {
		// let is parsed as a command, as bash does: its words are
		// expanded (and redirections read) before let evaluates them.
		lets := letKeywords(f, src)
		for _, l := range lets {
			blank(work, l)
		}
		spans = append(spans, lets[:len(lets)-1]...)
		if f, text, err, done = reparse(lets[len(lets)-1]); done {
			return f, text, err
		}
	}
	for len(spans) < maxDeferred {
		var pe syntax.ParseError
		if !errors.As(err, &pe) {
			break
		}
		if sp, ok := comsubSpan(string(work), subs, int(pe.Pos.Offset())); ok {
			// bash parses the command of $((...) ...) when it runs (a
			// syntax error there fails only the substitution)
			blank(work, sp)
			if f, text, err, done = reparse(sp); done {
				return f, text, err
			}
			continue
		}
		if sp, ok := letKeywordBefore(string(work), int(pe.Pos.Offset())); ok {
			// an error in let's words, which bash reads as a command's
			blank(work, sp)
			if f, text, err, done = reparse(sp); done {
				return f, text, err
			}
			continue
		}
		if pe.Text == "invalid var name" {
			// declare 1x=2: bash's declare reports the name when it runs
			sp, ok := declNameSpan(string(work), int(pe.Pos.Offset()))
			if !ok {
				break
			}
			blank(work, sp)
			if f, text, err, done = reparse(sp); done {
				return f, text, err
			}
			continue
		}
		if pe.Incomplete && !strings.Contains(pe.Text, "must be followed") {
			break
		}
		ok, arith := deferrable(pe.Text)
		if !ok {
			break
		}
		sp, ok := findDeferSpan(string(work), int(pe.Pos.Offset()), arith)
		if !ok && arith && !strings.Contains(pe.Text, "`:` must be followed") {
			// ${x:1 +}: an arithmetic error in a slice, found when it runs
			if ps, ok2 := findDeferSpan(string(work), int(pe.Pos.Offset()), false); ok2 {
				sp, ok = sliceExprSpan(ps)
			}
		}
		if !ok && strings.HasPrefix(pe.Text, "`let` must be followed") {
			// let alone: bash's let says "expression expected" when it runs
			if o := int(pe.Pos.Offset()); strings.HasPrefix(string(work[o:]), "let") {
				sp, ok = deferredSpan{deferBareLet, o, o + 3, "let", 0}, true
			}
		}
		if !ok && strings.Contains(pe.Text, "`[` must be followed") {
			// ${a[]:-x}: a bad substitution
			sp, ok = findDeferSpan(string(work), int(pe.Pos.Offset()), false)
		}
		if !ok && strings.Contains(pe.Text, "`:` must be followed") {
			// ${x:1:} or ${x: }: bash reads an empty or blank offset or
			// length as 0
			if sp, ok = findDeferSpan(string(work), int(pe.Pos.Offset()), false); ok {
				sp = sliceSpan(sp)
			}
		}
		if !ok {
			break
		}
		if sp.kind == deferSubscript && sp.inner == "" {
			if src[sp.end] == '}' {
				// ${a[]}: a bad substitution
				if sp, ok = findDeferSpan(string(work), sp.open, false); !ok {
					break
				}
			} else {
				sp.kind = deferEmptySubscript
			}
		}
		if strings.Contains(pe.Text, "@ expansion operator") {
			if at := transformOp(sp.inner); at > 0 {
				sp.kind, sp.op = deferTransform, sp.open+at
			}
		}
		before := string(work[sp.open:sp.end])
		blank(work, sp)
		if string(work[sp.open:sp.end]) == before {
			break // nothing to blank (m[]): the error stays
		}
		if f, text, err, done = reparse(sp); done {
			return f, text, err
		}
	}
	// the first error that is not deferred is reported (blanking kept
	// every position, so it reads as in the source)
	return nil, "", err
}

// continuedArith gives each $((...)), $[...] and ((...)) whose text holds
// a line continuation its text without them, evaluated when it runs: bash
// removes a backslash-newline before it reads the expression, so its
// error text does not show one (the tree keeps only positions).
func continuedArith(f *syntax.File, src string) {
	text := func(lo, hi uint) (string, bool) {
		if lo > hi || int(hi) > len(src) {
			return "", false
		}
		t := src[lo:hi]
		return strings.ReplaceAll(t, "\\\n", ""), strings.Contains(t, "\\\n")
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArithmExp:
			lo := n.Left.Offset() + 3
			if n.Bracket {
				lo = n.Left.Offset() + 2
			}
			if t, ok := text(lo, n.Right.Offset()); ok && n.X != nil && !isDeferredWord(n.X) {
				n.X = deferredWord(t, n.X.Pos(), true)
				return false
			}
		case *syntax.ArithmCmd:
			if t, ok := text(n.Left.Offset()+2, n.Right.Offset()); ok && n.X != nil && !isDeferredWord(n.X) {
				n.X = deferredWord(t, n.X.Pos(), true)
				return false
			}
		}
		return true
	})
}

// isDeferredWord reports an operand made by deferredWord.
func isDeferredWord(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) == 0 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && l.Value == expand.DeferredArithMarker
}

// dparenSubst rewrites each $(( whose parentheses do not close with
// "))" as "$( (": bash reads it as a command substitution whose command
// begins with a subshell ($((cd /; pwd) | cat)). at holds the offsets of
// the rewritten ones in the result.
func dparenSubst(src string) (re string, at []int, changed bool) {
	if !strings.Contains(src, "$((") {
		return src, nil, false
	}
	var b strings.Builder
	dq := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			b.WriteString(src[i : i+2])
			i++
			continue
		case c == '\'' && !dq:
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				b.WriteString(src[i:])
				return b.String(), at, changed
			}
			b.WriteString(src[i : i+j+2])
			i += j + 1
			continue
		case c == '"':
			dq = !dq
		case c == '#' && !dq && (i == 0 || strings.IndexByte(" \t\n;&|(", src[i-1]) >= 0):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				b.WriteString(src[i:])
				return b.String(), at, changed
			}
			b.WriteString(src[i : i+j])
			i += j - 1
			continue
		case strings.HasPrefix(src[i:], "$(("):
			end, ok := matchClose(src, i+3, '(', ')', 1)
			if _, closed := matchClose(src, i+2, '(', ')', 1); ok && closed && (end >= len(src) || src[end] != ')') {
				at = append(at, b.Len())
				b.WriteString("$( (")
				changed = true
			} else {
				b.WriteString("$((")
			}
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), at, changed
}

// comsubSpan finds the innermost rewritten $( ( (see dparenSubst) around
// off; its text is the command as bash reads it, without the blank the
// rewrite put in.
func comsubSpan(src string, subs []int, off int) (deferredSpan, bool) {
	var best deferredSpan
	found := false
	for _, o := range subs {
		if o > off || o+4 > len(src) || src[o:o+4] != "$( (" {
			continue
		}
		end, ok := matchClose(src, o+2, '(', ')', 1)
		if !ok || off >= end || found && o < best.open {
			continue
		}
		best, found = deferredSpan{deferComsub, o, end, src[o+3 : end-1], 0}, true
	}
	return best, found
}

// blank replaces the inside of a span with a valid construct of the same
// length: "0" and spaces for arithmetic, a name of underscores for ${...}.
func blank(b []byte, sp deferredSpan) {
	lo, hi := sp.open, sp.end
	switch sp.kind {
	case deferArith:
		if b[lo+1] == '[' {
			lo, hi = lo+2, hi-1
		} else {
			lo, hi = lo+3, hi-2
		}
	case deferArithCmd:
		lo, hi = lo+2, hi-2
	case deferParam:
		lo, hi = lo+2, hi-1
	case deferSubscript:
		lo, hi = lo+1, hi-1
	}
	if sp.kind == deferForPart {
		lo, hi = sp.open, sp.end
	}
	if sp.kind == deferComsub {
		// an empty $(   ), newlines kept
		for i := sp.open + 2; i < sp.end-1; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
		return
	}
	switch sp.kind {
	case deferEmptySubscript:
		b[lo], b[hi-1] = '_', '_'
		return
	case deferBareLet:
		copy(b[lo:hi], bareLetName)
		return
	case deferSliceExpr:
		for _, part := range slicePartsOf(string(b[sp.open:sp.end])) {
			first := true
			for i := sp.open + part[0]; i < sp.open+part[1]; i++ {
				switch {
				case b[i] == '\n' || first && isBlank(b[i]):
				case first:
					b[i], first = '0', false
				default:
					b[i] = ' '
				}
			}
		}
		return
	case deferDeclName:
		for i := lo; i < hi; i++ {
			if !isNameByte(b[i]) || i == lo && isDigit(b[i]) {
				b[i] = '_'
			}
		}
		return
	case deferSliceNum:
		b[sp.op] = '0'
		return
	case deferEmptyLength:
		// ${x:off } (the length put back when restored); an empty
		// offset becomes 0
		b[sp.op] = ' '
		for i := sp.op - 1; i >= sp.open && b[i] != ':'; i-- {
			if !isBlank(b[i]) {
				return
			}
		}
		for i := sp.op - 1; ; i-- {
			if b[i] == ':' {
				b[i+1] = '0'
				return
			}
		}
	}
	if sp.kind == deferTransform {
		// ${name+___}: expanded only when name is set, as bash checks
		// the operator only then
		b[sp.op] = '+'
		for i := sp.op + 1; i < sp.end-1; i++ {
			b[i] = '_'
		}
		return
	}
	if sp.kind == deferSubscript && sp.inner != "" && strings.TrimSpace(sp.inner) == "" {
		b[lo] = '0' // a blank subscript is 0 (m[ ]=1)
		return
	}
	first := true
	for i := lo; i < hi; i++ {
		switch {
		case b[i] == '\n':
		case first && (b[i] == ' ' || b[i] == '\t') && (sp.kind == deferForPart || sp.kind == deferSubscript):
		case sp.kind == deferParam:
			b[i] = '_'
		case first:
			b[i], first = '0', false
		default:
			b[i] = ' '
		}
	}
}

// findDeferSpan finds the innermost arithmetic (or, with arith unset,
// parameter) expansion around the error offset: the nearest opener before
// it whose match closes after it.
func findDeferSpan(src string, off int, arith bool) (deferredSpan, bool) {
	if off >= len(src) {
		off = len(src) - 1
	}
	for o := off; o >= 0 && off-o < 4096; o-- {
		var sp deferredSpan
		switch {
		case strings.HasPrefix(src[o:], "$(("):
			end, ok := matchClose(src, o+3, '(', ')', 2)
			if !ok || src[end-2] != ')' {
				continue
			}
			sp = deferredSpan{deferArith, o, end, src[o+3 : end-2], 0}
		case strings.HasPrefix(src[o:], "$["):
			end, ok := matchClose(src, o+2, '[', ']', 1)
			if !ok {
				continue
			}
			sp = deferredSpan{deferArith, o, end, src[o+2 : end-1], 0}
		case strings.HasPrefix(src[o:], "((") && forBefore(src, o):
			end, ok := matchClose(src, o+2, '(', ')', 2)
			if !ok || src[end-2] != ')' {
				continue
			}
			// the expression (between semicolons) holding the error
			lo := o + 2
			for i := lo; i < end-2; i++ {
				if src[i] == ';' {
					if i >= off {
						sp = deferredSpan{deferForPart, lo, i, src[lo:i], 0}
						break
					}
					lo = i + 1
				}
			}
			if sp.end == 0 {
				sp = deferredSpan{deferForPart, lo, end - 2, src[lo : end-2], 0}
			}
			if strings.TrimSpace(sp.inner) == "" {
				continue
			}
			if sp.open <= off && off < sp.end {
				return sp, true
			}
			continue
		case strings.HasPrefix(src[o:], "((") && (o == 0 || src[o-1] != '$' && src[o-1] != '('):
			end, ok := matchClose(src, o+2, '(', ')', 2)
			if !ok || src[end-2] != ')' || atCommandStart(src, o) == false {
				continue
			}
			sp = deferredSpan{deferArithCmd, o, end, src[o+2 : end-2], 0}
		case src[o] == '[' && o > 0 && isNameByte(src[o-1]):
			end, ok := matchClose(src, o+1, '[', ']', 1)
			if !ok || end >= len(src) || !strings.ContainsRune("}=+", rune(src[end])) || strings.Contains(src[o:end], "\n") {
				continue
			}
			sp = deferredSpan{deferSubscript, o, end, src[o+1 : end-1], 0}
		case strings.HasPrefix(src[o:], "${"):
			end, ok := matchClose(src, o+2, '{', '}', 1)
			if !ok || strings.Contains(src[o:end], "\n") {
				continue
			}
			sp = deferredSpan{deferParam, o, end, src[o:end], 0}
		case o > 0 && isBlank(src[o-1]) && !isBlank(src[o]) && letBefore(src, o-1):
			end := o
			for end < len(src) && !isBlank(src[end]) && !strings.ContainsRune(";&|\n<>()'\"`$", rune(src[end])) {
				end++
			}
			if end < len(src) && !isBlank(src[end]) && !strings.ContainsRune(";&|\n", rune(src[end])) {
				continue
			}
			sp = deferredSpan{deferLet, o, end, src[o:end], 0}
		default:
			continue
		}
		if (sp.kind == deferParam) == arith {
			continue
		}
		if sp.open <= off && off < sp.end || sp.kind == deferLet && off < sp.end {
			return sp, true
		}
	}
	return deferredSpan{}, false
}

// bareLetName stands for the let keyword while the source is parsed
// again, so that let is parsed as a command.
const bareLetName = "_l_"

// letKeywords returns the let keyword of every let clause in f (parsed
// from src) that has a redirection: the parser reads let's words as
// arithmetic (so 2>/dev/null is a comparison and &> ends the command),
// while bash reads them as a command's words with its redirections.
func letKeywords(f *syntax.File, src string) []deferredSpan {
	if !strings.Contains(src, "let") {
		return nil
	}
	var lets []deferredSpan
	syntax.Walk(f, func(n syntax.Node) bool {
		if l, ok := n.(*syntax.LetClause); ok {
			if o := int(l.Let.Offset()); o+3 <= len(src) && src[o:o+3] == "let" && letRedirects(src[o+3:]) {
				lets = append(lets, deferredSpan{deferBareLet, o, o + 3, "let", 0})
			}
		}
		return true
	})
	return lets
}

// letRedirects reports whether the command that src begins (after let's
// keyword) has an unquoted < or >.
func letRedirects(src string) bool {
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '<' || c == '>':
			return true
		case c == '\n' || c == ';' || c == '|' || c == ')' || c == '`' || c == '&' && (i+1 == len(src) || src[i+1] != '>'):
			return false
		}
	}
	return false
}

// letKeywordBefore finds a let keyword with a redirection at the start of
// a command on the line before src[off], where a parse error is.
func letKeywordBefore(src string, off int) (deferredSpan, bool) {
	lo := strings.LastIndexByte(src[:min(off, len(src))], '\n') + 1
	for i := min(off, len(src)) - 4; i >= lo; i-- {
		if src[i:i+3] == "let" && isBlank(src[i+3]) && atCommandStart(src, i) && letRedirects(src[i+3:]) {
			return deferredSpan{deferBareLet, i, i + 3, "let", 0}, true
		}
	}
	return deferredSpan{}, false
}

// slicePartsOf returns the offset and the length (when there is one) of
// ${name:off:len}, as ranges of its text; none for other expansions
// (${name:-word} and the like).
func slicePartsOf(text string) [][2]int {
	p := paramEnd(text)
	if p <= 0 || p >= len(text)-1 || text[p] != ':' || strings.IndexByte("-=?+", text[p+1]) >= 0 {
		return nil
	}
	q := lengthColon(text, p, "([{", ")]}")
	var parts [][2]int
	add := func(lo, hi int) {
		if strings.TrimSpace(text[lo:hi]) != "" {
			parts = append(parts, [2]int{lo, hi})
		}
	}
	if q < 0 {
		add(p+1, len(text)-1)
	} else {
		add(p+1, q)
		add(q+1, len(text)-1)
	}
	return parts
}

// sliceExprSpan turns the span of a ${...} into one whose slice parts are
// deferred, when it is a slice.
func sliceExprSpan(sp deferredSpan) (deferredSpan, bool) {
	if len(slicePartsOf(sp.inner)) == 0 {
		return sp, false
	}
	sp.kind = deferSliceExpr
	return sp, true
}

// declNameSpan finds the name of an assignment argument at off (up to its
// = or +=) that is not a valid name; only plain bytes are blanked, and an
// array value (1x=(...)) stays a syntax error, as in bash.
func declNameSpan(src string, off int) (deferredSpan, bool) {
	end := off
	for end < len(src) && src[end] != '=' && !(src[end] == '+' && end+1 < len(src) && src[end+1] == '=') {
		if strings.IndexByte(" \t\n;&|()<>'\"`$\\[]{}", src[end]) >= 0 {
			return deferredSpan{}, false
		}
		end++
	}
	eq := end
	if eq < len(src) && src[eq] == '+' {
		eq++
	}
	if end == off || eq >= len(src) || eq+1 < len(src) && src[eq+1] == '(' {
		return deferredSpan{}, false
	}
	return deferredSpan{deferDeclName, off, end, src[off:end], 0}, true
}

// transformOp finds the '@' of ${name@op} (name a parameter, perhaps with
// a subscript, after an optional '!'), as an offset in the span's text.
func transformOp(text string) int {
	if i := paramEnd(text); i > 0 && i < len(text) && text[i] == '@' {
		return i
	}
	return 0
}

// lengthColon is where the length of ${name:off:len} starts, given the
// offset's colon at p: the next colon outside the brackets that opens and
// closes name and outside a ?: of the offset; -1 when there is no length.
func lengthColon(text string, p int, opens, closes string) int {
	depth, ternary := 0, 0
	for i := p + 1; i < len(text)-1; i++ {
		switch c := text[i]; {
		case strings.IndexByte(opens, c) >= 0:
			depth++
		case strings.IndexByte(closes, c) >= 0:
			depth--
		case depth == 0 && c == '?':
			ternary++
		case depth == 0 && c == ':' && ternary > 0:
			ternary--
		case depth == 0 && c == ':':
			return i
		}
	}
	return -1
}

// sliceSpan turns the span of ${name:off:len} whose offset or length is
// blank or empty into the edit that gives it bash's meaning (0); other
// spans are kept (${x:} is a bad substitution).
func sliceSpan(sp deferredSpan) deferredSpan {
	text := sp.inner
	p := paramEnd(text)
	if p <= 0 || p >= len(text)-1 || text[p] != ':' {
		return sp
	}
	q := lengthColon(text, p, "([", ")]")
	blankAt := func(part string, at int) (int, bool) {
		if part != "" && strings.TrimSpace(part) == "" {
			return sp.open + at, true
		}
		return 0, false
	}
	if q < 0 {
		if at, ok := blankAt(text[p+1:len(text)-1], p+1); ok {
			sp.kind, sp.op = deferSliceNum, at
		}
		return sp
	}
	if at, ok := blankAt(text[q+1:len(text)-1], q+1); ok {
		sp.kind, sp.op = deferSliceNum, at
	} else if q == len(text)-2 {
		sp.kind, sp.op = deferEmptyLength, sp.open+q
	}
	return sp
}

// paramEnd is the offset in ${...} text just after the parameter (its
// name and subscript, after an optional '!'), or 0.
func paramEnd(text string) int {
	i := 2
	if i < len(text) && text[i] == '!' {
		i++
	}
	start := i
	for i < len(text) && isNameByte(text[i]) && (i == start || !isDigit(text[start])) {
		i++
	}
	if i == start && i < len(text) && strings.IndexByte("@*#?-$!0123456789", text[i]) >= 0 {
		i++
	}
	if i == start {
		return 0
	}
	if i < len(text) && text[i] == '[' {
		end, ok := matchClose(text, i+1, '[', ']', 1)
		if !ok {
			return 0
		}
		i = end
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// forBefore reports whether the word before src[o] is "for".
func forBefore(src string, o int) bool {
	i := o - 1
	for i >= 0 && isBlank(src[i]) {
		i--
	}
	return i >= 2 && src[i-2:i+1] == "for" && (i == 2 || !isNameByte(src[i-3]))
}

// letBefore reports whether the words before src[i] (a blank) on the line
// are "let" and unquoted let arguments.
func letBefore(src string, i int) bool {
	line := src[:i]
	if n := strings.LastIndexAny(line, "\n;&|"); n >= 0 {
		line = line[n+1:]
	}
	fields := strings.Fields(line)
	return len(fields) > 0 && fields[0] == "let" && !strings.ContainsAny(line, "'\"`$(")
}

// atCommandStart reports whether src[o] begins a command.
func atCommandStart(src string, o int) bool {
	i := o - 1
	for i >= 0 && isBlank(src[i]) {
		i--
	}
	if i < 0 || strings.ContainsRune("\n;&|({", rune(src[i])) {
		return true
	}
	j := i
	for j >= 0 && src[j] >= 'a' && src[j] <= 'z' {
		j--
	}
	switch src[j+1 : i+1] {
	case "then", "else", "do", "if", "elif", "while", "until", "time", "!":
		return true
	}
	return false
}

// matchClose finds the end of a bracketed construct starting at i with the
// given depth, skipping quoted text.
func matchClose(src string, i int, open, close byte, depth int) (int, bool) {
	var quote byte
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == open:
			depth++
		case c == close:
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// restoreDeferred gives each blanked construct its node back with the
// original text, checked when it runs.
func restoreDeferred(f *syntax.File, spans []deferredSpan, src string) {
	byOpen := make(map[uint]deferredSpan, len(spans))
	for _, sp := range spans {
		byOpen[uint(sp.open)] = sp
	}
	// the words and double-quoted strings being walked: bash names the
	// innermost one in a bad substitution error
	var stack []syntax.Node
	context := func(sp deferredSpan) (string, bool) {
		for i := len(stack) - 1; i >= 0; i-- {
			lo, hi := int(stack[i].Pos().Offset()), int(stack[i].End().Offset())
			switch n := stack[i].(type) {
			case *syntax.Word:
				if r, ok := stack[max(i-1, 0)].(*syntax.Redirect); ok && r.Hdoc == n && lo <= sp.open && hi <= len(src) {
					// a here-document's body, without its delimiter line
					body := src[lo:hi]
					return body[:strings.LastIndexByte(body, '\n')+1], true
				}
				if i >= 2 {
					// an argument of declare, export, local...: all of it
					if as, ok := stack[i-1].(*syntax.Assign); ok && as.Value == n {
						if _, ok := stack[i-2].(*syntax.DeclClause); ok {
							lo = int(as.Pos().Offset())
						}
					}
				}
			case *syntax.DblQuoted:
				if lo, hi = lo+1, hi-1; n.Dollar {
					lo++
				}
			default:
				continue
			}
			if lo <= sp.open && sp.end <= hi && hi <= len(src) {
				return src[lo:hi], false
			}
		}
		return src[sp.open:sp.end], false
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if !restoreNode(n, byOpen, context) {
			return false
		}
		stack = append(stack, n)
		return true
	})
}

// restoreNode restores one node; it reports whether to walk its children.
func restoreNode(n syntax.Node, byOpen map[uint]deferredSpan, context func(deferredSpan) (string, bool)) bool {
	switch n := n.(type) {
	case *syntax.CmdSubst:
		if sp, ok := byOpen[n.Left.Offset()]; ok && sp.kind == deferComsub {
			lit := func(v string) *syntax.Word {
				return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: n.Left, ValueEnd: n.Left, Value: v}}}
			}
			n.Stmts = []*syntax.Stmt{{Position: n.Left, Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(comsubMarker), lit(sp.inner)}}}}
			return false
		}
	case *syntax.CallExpr:
		if len(n.Args) > 0 && len(n.Args[0].Parts) == 1 {
			if l, ok := n.Args[0].Parts[0].(*syntax.Lit); ok && l.Value == bareLetName {
				if sp, ok := byOpen[l.Pos().Offset()]; ok && sp.kind == deferBareLet {
					l.Value = "let"
				}
			}
		}
	case *syntax.ArithmExp:
		if sp, ok := byOpen[n.Left.Offset()]; ok && sp.kind == deferArith {
			n.X = deferredWord(sp.inner, n.X.Pos(), true)
			return false
		}
	case *syntax.ArithmCmd:
		if sp, ok := byOpen[n.Left.Offset()]; ok && sp.kind == deferArithCmd {
			n.X = deferredWord(sp.inner, n.X.Pos(), true)
			return false
		}
	case *syntax.LetClause:
		for i, e := range n.Exprs {
			if sp, ok := byOpen[e.Pos().Offset()]; ok && sp.kind == deferLet {
				n.Exprs[i] = deferredWord(sp.inner, e.Pos(), false)
			}
		}
	case *syntax.ParamExp:
		if sp, ok := byOpen[n.Dollar.Offset()]; ok && sp.kind == deferParam && n.Param != nil {
			text, _ := context(sp)
			n.Param.Value = expand.BadSubstMarker + text
			return false
		}
		if sp, ok := byOpen[n.Dollar.Offset()]; ok && sp.kind == deferSliceExpr && n.Slice != nil {
			parts := slicePartsOf(sp.inner)
			for i, e := range []*syntax.ArithmExpr{&n.Slice.Offset, &n.Slice.Length} {
				if i < len(parts) && *e != nil {
					*e = deferredWord(sp.inner[parts[i][0]:parts[i][1]], (*e).Pos(), true)
				}
			}
		}
		if sp, ok := byOpen[n.Dollar.Offset()]; ok && sp.kind == deferEmptyLength && n.Slice != nil && n.Slice.Length == nil {
			n.Slice.Length = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: n.Dollar, ValueEnd: n.Dollar, Value: "0"}}}
		}
		if sp, ok := byOpen[n.Dollar.Offset()]; ok && sp.kind == deferTransform && n.Exp != nil {
			text, hdoc := context(sp)
			if hdoc {
				text = "\x01" + text // not fatal in a here-document
			}
			n.Exp.Word = &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{
				Dollar: n.Dollar, Param: &syntax.Lit{ValuePos: n.Dollar, ValueEnd: n.Dollar, Value: expand.FatalSubstMarker + text},
			}}}
			return false
		}
		if n.Index != nil {
			n.Index = restoreSubscript(byOpen, n.Index)
		}
	case *syntax.Assign:
		if n.Name != nil {
			if sp, ok := byOpen[n.Name.Pos().Offset()]; ok && sp.kind == deferDeclName {
				n.Name.Value = sp.inner
			}
		}
		if n.Name != nil && n.Index == nil && strings.HasSuffix(n.Name.Value, "__") {
			for _, sp := range byOpen {
				if sp.kind == deferEmptySubscript && uint(sp.end) == n.Name.End().Offset() {
					n.Name.Value = strings.TrimSuffix(n.Name.Value, "__")
					n.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{
						ValuePos: n.Name.ValueEnd, ValueEnd: n.Name.ValueEnd, Value: expand.BadSubscriptMarker + n.Name.Value + "[]",
					}}}
				}
			}
		}
		if n.Index != nil {
			n.Index = restoreSubscript(byOpen, n.Index)
		}
	case *syntax.CStyleLoop:
		for _, e := range []*syntax.ArithmExpr{&n.Init, &n.Cond, &n.Post} {
			if *e == nil {
				continue
			}
			if sp, ok := byFirst(byOpen, (*e).Pos().Offset(), deferForPart); ok {
				*e = deferredWord(sp.inner, (*e).Pos(), true)
			}
		}
	}
	return true
}

// byFirst finds the span of a kind whose text's first non-blank byte is
// at off (where the parser put the blanked expression's node).
func byFirst(byOpen map[uint]deferredSpan, off uint, kind deferKind) (deferredSpan, bool) {
	for _, sp := range byOpen {
		if sp.kind != kind {
			continue
		}
		base := sp.open
		if kind == deferSubscript {
			base++
		}
		if lead := len(sp.inner) - len(strings.TrimLeft(sp.inner, " \t")); uint(base+lead) == off || lead == len(sp.inner) && uint(base) == off {
			return sp, true
		}
	}
	return deferredSpan{}, false
}

func restoreSubscript(byOpen map[uint]deferredSpan, idx syntax.ArithmExpr) syntax.ArithmExpr {
	if sp, ok := byFirst(byOpen, idx.Pos().Offset(), deferSubscript); ok {
		return deferredWord(sp.inner, idx.Pos(), true)
	}
	return idx
}

// deferredWord is an arithmetic operand whose text is evaluated by the
// text evaluator when it runs; the text keeps its expansions ($x, $(...))
// when it parses as a here-document body would (bash expands the text of
// an arithmetic expression like a double-quoted string).
func deferredWord(text string, pos syntax.Pos, expanding bool) *syntax.Word {
	if expanding {
		text = removeDoubleQuotes(text)
	}
	marker := &syntax.Lit{ValuePos: pos, ValueEnd: pos, Value: expand.DeferredArithMarker}
	if expanding && strings.ContainsAny(text, "$`\\") {
		if w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(text)); err == nil {
			return &syntax.Word{Parts: append([]syntax.WordPart{marker}, w.Parts...)}
		}
	}
	return &syntax.Word{Parts: []syntax.WordPart{marker, &syntax.Lit{ValuePos: pos, ValueEnd: pos, Value: text}}}
}

// comsubMarker is the command name of a deferred command substitution's
// statement; its argument is the command text (see deferredComsub).
const comsubMarker = "\x00comsub"

// deferredComsub returns the text of a command substitution whose command
// is parsed only when it runs.
func deferredComsub(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	c, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 2 || len(c.Args[0].Parts) != 1 || len(c.Args[1].Parts) != 1 {
		return "", false
	}
	if l, ok := c.Args[0].Parts[0].(*syntax.Lit); !ok || l.Value != comsubMarker {
		return "", false
	}
	l, ok := c.Args[1].Parts[0].(*syntax.Lit)
	return l.Value, ok
}

// removeDoubleQuotes drops the double quotes of arithmetic text, which
// bash removes before it evaluates (backslash-escaped ones stay).
func removeDoubleQuotes(s string) string {
	if !strings.Contains(s, "\"") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			b.WriteByte(s[i])
			i++
			b.WriteByte(s[i])
		case s[i] != '"':
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
