package shell

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// testExpr evaluates a [[ ]] expression.
func (sh *Shell) testExpr(x syntax.TestExpr) (bool, error) {
	if err := sh.charge(5); err != nil {
		return false, err
	}
	switch x := x.(type) {
	case *syntax.Word:
		s, err := sh.literal(x)
		sh.traceTest(err, "-n", s)
		return s != "", err
	case *syntax.ParenTest:
		return sh.testExpr(x.X)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			if b, ok := x.X.(*syntax.BinaryTest); ok && (b.Op == syntax.AndTest || b.Op == syntax.OrTest) {
				return sh.testChain(x) // ! applies to the first term only
			}
			if leafTest(x.X) {
				sh.testNeg = true // xtrace shows "! op arg"
			}
			ok, err := sh.testExpr(x.X)
			sh.testNeg = false
			return !ok, err
		}
		w, _ := x.X.(*syntax.Word)
		s, err := sh.literal(w)
		if err != nil {
			return false, err
		}
		sh.traceTest(nil, x.Op.String(), s)
		return sh.unaryTest(x.Op.String(), s)
	case *syntax.BinaryTest:
		if x.Op == syntax.AndTest || x.Op == syntax.OrTest {
			return sh.testChain(x)
		}
		lw, _ := x.X.(*syntax.Word)
		rw, _ := x.Y.(*syntax.Word)
		l, err := sh.literal(lw)
		if err != nil {
			return false, err
		}
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			pat, err := sh.pattern(rw)
			if err != nil {
				return false, err
			}
			if sh.opts.xtrace {
				sh.traceTest(nil, l, x.Op.String(), sh.tracePattern(rw))
			}
			m := matchPattern(pat, l, true)
			return m == (x.Op != syntax.TsNoMatch), nil
		case syntax.TsReMatch:
			if sh.opts.xtrace {
				sh.traceTest(nil, l, "=~", sh.traceRegex(rw))
			}
			return sh.regexMatch(l, rw)
		case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
			r, err := sh.literal(rw)
			if err != nil {
				return false, err
			}
			sh.traceTest(nil, l, x.Op.String(), r)
			a, err := sh.arithString(l)
			if err != nil {
				return false, err
			}
			b, err := sh.arithString(r)
			if err != nil {
				return false, err
			}
			return intCompare(x.Op.String(), a, b), nil
		}
		r, err := sh.literal(rw)
		if err != nil {
			return false, err
		}
		sh.traceTest(nil, l, x.Op.String(), r)
		return sh.binaryTest(x.Op.String(), l, r)
	}
	return false, fmt.Errorf("unsupported test expression")
}

// testChain evaluates a run of && and || with bash's precedence (&&
// binds tighter, both left to right, short-circuit); the parser nests
// them to the right without precedence (a && b || c as a && (b || c)).
func (sh *Shell) testChain(x syntax.TestExpr) (bool, error) {
	var terms []syntax.TestExpr
	var ops []syntax.BinTestOperator
	// neg: a ! the parser put around the rest of the run, which bash
	// applies to the next term only
	var flatten func(e syntax.TestExpr, neg bool)
	flatten = func(e syntax.TestExpr, neg bool) {
		if u, ok := e.(*syntax.UnaryTest); ok && u.Op == syntax.TsNot {
			if b, ok := u.X.(*syntax.BinaryTest); ok && (b.Op == syntax.AndTest || b.Op == syntax.OrTest) {
				flatten(b, !neg)
				return
			}
		}
		if b, ok := e.(*syntax.BinaryTest); ok && (b.Op == syntax.AndTest || b.Op == syntax.OrTest) {
			flatten(b.X, neg)
			ops = append(ops, b.Op)
			flatten(b.Y, false)
			return
		}
		if neg {
			e = &syntax.UnaryTest{OpPos: e.Pos(), Op: syntax.TsNot, X: e}
		}
		terms = append(terms, e)
	}
	flatten(x, false)
	// an OR of AND groups: a group is skipped once one of its terms fails
	result, groupOK := false, true
	for i, t := range terms {
		if groupOK {
			ok, err := sh.testExpr(t)
			if err != nil {
				return false, err
			}
			groupOK = ok
		}
		if i == len(ops) || ops[i] == syntax.OrTest {
			if groupOK {
				return true, nil
			}
			result, groupOK = false, true
		}
	}
	return result, nil
}

// leafTest reports a test that is not !, ( ), && or ||.
func leafTest(x syntax.TestExpr) bool {
	switch x := x.(type) {
	case *syntax.ParenTest:
		return false
	case *syntax.UnaryTest:
		return x.Op != syntax.TsNot
	case *syntax.BinaryTest:
		return x.Op != syntax.AndTest && x.Op != syntax.OrTest
	}
	return true
}

// traceTest prints one evaluated term of [[ ]] under set -x, as bash does
// (its words expanded, unquoted).
func (sh *Shell) traceTest(err error, words ...string) {
	if !sh.opts.xtrace || err != nil {
		return
	}
	neg := ""
	if sh.testNeg {
		neg, sh.testNeg = "! ", false
	}
	sh.traceLine("[[ " + neg + strings.Join(words, " ") + " ]]")
}

// traceRegex renders the regular expression of =~ as bash's xtrace
// does: its words with the quoting removed.
func (sh *Shell) traceRegex(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			for i := 0; i < len(p.Value); i++ {
				if p.Value[i] == '\\' && i+1 < len(p.Value) {
					i++
				}
				b.WriteByte(p.Value[i])
			}
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		default:
			s, _ := sh.literal(&syntax.Word{Parts: []syntax.WordPart{p}})
			b.WriteString(s)
		}
	}
	return b.String()
}

// tracePattern renders the pattern of == or != as bash's xtrace does:
// quoted characters each behind a backslash.
func (sh *Shell) tracePattern(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	escape := func(s string) {
		for _, r := range s {
			b.WriteByte('\\')
			b.WriteRune(r)
		}
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			escape(p.Value)
		case *syntax.DblQuoted:
			s, _ := sh.literal(&syntax.Word{Parts: p.Parts})
			escape(s)
		default:
			s, _ := sh.literal(&syntax.Word{Parts: []syntax.WordPart{p}})
			b.WriteString(s)
		}
	}
	return b.String()
}

func intCompare(op string, a, b int) bool {
	switch op {
	case "-eq":
		return a == b
	case "-ne":
		return a != b
	case "-lt":
		return a < b
	case "-le":
		return a <= b
	case "-gt":
		return a > b
	case "-ge":
		return a >= b
	}
	return false
}

// regexMatch implements =~, a POSIX ERE as bash's regcomp reads it;
// quoted parts of the pattern match literally.
func (sh *Shell) regexMatch(s string, w *syntax.Word) (bool, error) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(quoteERE(p.Value))
		default:
			v, err := sh.literal(&syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return false, err
			}
			if _, ok := p.(*syntax.DblQuoted); ok {
				v = quoteERE(v)
			}
			b.WriteString(v)
		}
	}
	re, err := posixre.Compile(b.String(), posixre.Options{Extended: true, DotNL: true, Fuel: sh.charge})
	if err != nil {
		// bash: invalid regex gives status 2
		return false, fmt.Errorf("invalid regular expression `%s'", b.String())
	}
	loc := re.FindStringSubmatchIndex(s)
	if err := re.Err(); err != nil {
		return false, err
	}
	if loc == nil {
		sh.store("BASH_REMATCH", &Var{Variable: expand.Variable{Set: true, Kind: expand.Indexed}})
		return false, nil
	}
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	sh.store("BASH_REMATCH", &Var{Variable: expand.Variable{Set: true, Kind: expand.Indexed, List: m}})
	return true, nil
}

// quoteERE escapes the characters special in a POSIX ERE.
func quoteERE(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.[]()*+?{}|^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (sh *Shell) unaryTest(op, s string) (bool, error) {
	switch op {
	case "-z":
		return s == "", nil
	case "-n":
		return s != "", nil
	case "-v":
		name := s
		if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
			name = s[:i]
			v := sh.lookup(sh.resolveRef(name))
			if v == nil {
				return false, nil
			}
			key := s[i+1 : len(s)-1]
			if v.Kind == expand.Associative {
				_, ok := v.Map[key]
				return ok, nil
			}
			n, err := sh.arithString(key)
			if err != nil {
				return false, err
			}
			_, ok := indexGet(v, n)
			return ok, nil
		}
		return sh.envGet(name).IsSet(), nil
	case "-o":
		p := sh.optPtr(s)
		return p != nil && *p, nil
	case "-R":
		v := sh.lookup(s)
		return v != nil && v.Kind == expand.NameRef, nil
	case "-t":
		return false, nil
	}
	if s == "" {
		return false, nil
	}
	p := command.Join(sh.dir, s)
	fs := sh.rt.FS
	if op == "-L" || op == "-h" {
		fi, err := fs.Lstat(p)
		return err == nil && fi.Mode&iofs.ModeSymlink != 0, nil
	}
	fi, err := fs.Stat(p)
	if err != nil {
		if errors.Is(err, iofs.ErrNotExist) && sh.virtualBinary(p) {
			switch op {
			case "-e", "-a", "-f", "-r", "-w", "-x", "-s":
				return true, nil
			}
		}
		return false, nil
	}
	m := fi.Mode
	switch op {
	case "-e", "-a":
		return true, nil
	case "-f":
		return m.IsRegular(), nil
	case "-d":
		return m.IsDir(), nil
	case "-s":
		return fi.Size > 0 && !m.IsDir() || m.IsDir(), nil
	case "-r", "-w":
		return true, nil
	case "-x":
		return m&0o111 != 0, nil
	case "-c":
		return m&iofs.ModeCharDevice != 0, nil
	case "-b", "-S":
		return false, nil
	case "-p":
		return m&iofs.ModeNamedPipe != 0, nil
	case "-k":
		return m&iofs.ModeSticky != 0, nil
	case "-u":
		return m&iofs.ModeSetuid != 0, nil
	case "-g":
		return m&iofs.ModeSetgid != 0, nil
	case "-O", "-G":
		return fi.UID == sh.rt.Users.UID(), nil
	case "-N":
		return true, nil
	}
	return false, fmt.Errorf("%s: unary operator expected", op)
}

func (sh *Shell) binaryTest(op, a, b string) (bool, error) {
	switch op {
	case "=", "==":
		return a == b, nil
	case "!=":
		return a != b, nil
	case "<":
		return a < b, nil
	case ">":
		return a > b, nil
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		x, err := testInt(a)
		if err != nil {
			return false, err
		}
		y, err := testInt(b)
		if err != nil {
			return false, err
		}
		return intCompare(op, x, y), nil
	case "-nt", "-ot":
		fa, ea := sh.rt.FS.Stat(command.Join(sh.dir, a))
		fb, eb := sh.rt.FS.Stat(command.Join(sh.dir, b))
		if op == "-nt" {
			return ea == nil && (eb != nil || fa.ModTime.After(fb.ModTime)), nil
		}
		return eb == nil && (ea != nil || fa.ModTime.Before(fb.ModTime)), nil
	case "-ef":
		fa, ea := sh.rt.FS.Stat(command.Join(sh.dir, a))
		fb, eb := sh.rt.FS.Stat(command.Join(sh.dir, b))
		return ea == nil && eb == nil && fa.Ino == fb.Ino, nil
	}
	return false, fmt.Errorf("%s: binary operator expected", op)
}

func testInt(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s: integer expression expected", s)
	}
	return n, nil
}

var unaryOps = map[string]bool{"-e": true, "-a": true, "-f": true, "-d": true, "-s": true, "-r": true, "-w": true,
	"-x": true, "-L": true, "-h": true, "-z": true, "-n": true, "-c": true, "-b": true, "-p": true, "-S": true,
	"-k": true, "-u": true, "-g": true, "-O": true, "-G": true, "-N": true, "-t": true, "-v": true, "-o": true, "-R": true}

var binaryOps = map[string]bool{"=": true, "==": true, "!=": true, "<": true, ">": true, "-eq": true, "-ne": true,
	"-lt": true, "-le": true, "-gt": true, "-ge": true, "-nt": true, "-ot": true, "-ef": true}

func biTest(sh *Shell, args []string) int {
	name := args[0]
	a := args[1:]
	if name == "[" {
		if len(a) == 0 || a[len(a)-1] != "]" {
			sh.bierr("[", "missing `]'")
			return 2
		}
		a = a[:len(a)-1]
	}
	t := &testParser{sh: sh, args: a}
	ok, err := t.eval()
	if err != nil {
		if errors.Is(err, command.ErrStopped) {
			return 1
		}
		sh.bierr(name, "%v", err)
		return 2
	}
	return b2i(!ok)
}

type testParser struct {
	sh   *Shell
	args []string
	pos  int
}

func (t *testParser) eval() (bool, error) {
	switch len(t.args) {
	case 0:
		return false, nil
	case 1:
		return t.args[0] != "", nil
	case 2:
		if t.args[0] == "!" {
			return t.args[1] == "", nil
		}
		if unaryOps[t.args[0]] {
			return t.sh.unaryTest(t.args[0], t.args[1])
		}
		return false, fmt.Errorf("%s: unary operator expected", t.args[0])
	case 3:
		if binaryOps[t.args[1]] {
			return t.sh.binaryTest(t.args[1], t.args[0], t.args[2])
		}
		if t.args[1] == "-a" || t.args[1] == "-o" {
			break
		}
		if t.args[0] == "!" {
			r, err := (&testParser{sh: t.sh, args: t.args[1:]}).eval()
			return !r, err
		}
		if t.args[0] == "(" && t.args[2] == ")" {
			return t.args[1] != "", nil
		}
		return false, fmt.Errorf("%s: binary operator expected", t.args[1])
	case 4:
		if t.args[0] == "!" {
			r, err := (&testParser{sh: t.sh, args: t.args[1:]}).eval()
			return !r, err
		}
	}
	r, err := t.or()
	if err == nil && t.pos < len(t.args) {
		return false, errors.New("too many arguments")
	}
	return r, err
}

func (t *testParser) peek() string {
	if t.pos < len(t.args) {
		return t.args[t.pos]
	}
	return ""
}

func (t *testParser) or() (bool, error) {
	l, err := t.and()
	for err == nil && t.peek() == "-o" {
		t.pos++
		var r bool
		r, err = t.and()
		l = l || r
	}
	return l, err
}

func (t *testParser) and() (bool, error) {
	l, err := t.not()
	for err == nil && t.peek() == "-a" {
		t.pos++
		var r bool
		r, err = t.not()
		l = l && r
	}
	return l, err
}

func (t *testParser) not() (bool, error) {
	if t.peek() == "!" && t.pos+1 < len(t.args) {
		t.pos++
		r, err := t.not()
		return !r, err
	}
	return t.primary()
}

func (t *testParser) primary() (bool, error) {
	if t.pos >= len(t.args) {
		return false, errors.New("argument expected")
	}
	a := t.args[t.pos]
	if a == "(" {
		t.pos++
		r, err := t.or()
		if err != nil {
			return false, err
		}
		if t.peek() != ")" {
			return false, errors.New("`)' expected")
		}
		t.pos++
		return r, nil
	}
	if t.pos+2 < len(t.args) && binaryOps[t.args[t.pos+1]] {
		op, b := t.args[t.pos+1], t.args[t.pos+2]
		t.pos += 3
		return t.sh.binaryTest(op, a, b)
	}
	if unaryOps[a] && t.pos+1 < len(t.args) {
		t.pos += 2
		return t.sh.unaryTest(a, t.args[t.pos-1])
	}
	t.pos++
	return a != "", nil
}
