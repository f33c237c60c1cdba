package shell

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/sched"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// attrsOf is the declare flags of a variable (after namerefs), for
// ${name@a} and ${name@A}.
func (sh *Shell) attrsOf(name string) string {
	if v := sh.lookup(name); v != nil {
		return varFlags(v)
	}
	return ""
}

// ecfg returns the expansion config; the cached one is reused unless an
// expansion is already in progress on this shell (hooks can nest).
func (sh *Shell) ecfg() *expand.Config {
	var cfg *expand.Config
	if sh.cfgDepth == 0 && sh.cfg != nil {
		cfg = sh.cfg
	} else {
		cfg = &expand.Config{Env: envAdapter{sh}, CmdSubst: sh.cmdSubst, ProcSubst: sh.procSubst, Check: sh.checkSize, Fits: sh.fits,
			Warn: func(msg string) { sh.errf("%s", msg) }, Attrs: sh.attrsOf}
		if sh.cfgDepth == 0 {
			sh.cfg = cfg
		}
	}
	cfg.NoUnset = sh.opts.nounset
	cfg.NullGlob = sh.opts.nullglob
	cfg.DotGlob = sh.opts.dotglob
	cfg.GlobStar = sh.opts.globstar
	cfg.ExtGlob = sh.opts.extglob
	cfg.NoCaseGlob = sh.opts.nocaseglob
	cfg.ReadDir2 = nil
	if !sh.opts.noglob {
		if sh.readDirFn == nil {
			sh.readDirFn = sh.readDirGlob
		}
		cfg.ReadDir2 = sh.readDirFn
	}
	return cfg
}

// plainLit returns the value of a word that expands to itself: one literal
// part with no quoting, globbing, brace or tilde syntax.
func plainLit(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || l.Value == "" || strings.ContainsAny(l.Value, "*?[{\\~") {
		return "", false
	}
	return l.Value, true
}

// fields expands words into arguments.
func (sh *Shell) fields(words ...*syntax.Word) ([]string, error) {
	// Fast path: words made only of plain literals.
	out := make([]string, 0, len(words))
	for _, w := range words {
		v, ok := plainLit(w)
		if !ok {
			out = nil
			break
		}
		out = append(out, v)
	}
	if out != nil {
		var n int64
		for _, f := range out {
			n += int64(len(f)) + 1
		}
		if err := sh.charge(n * resources.CostExpandB); err != nil {
			return nil, err
		}
		return out, nil
	}
	if err := sh.checkBraces(words); err != nil {
		return nil, err
	}
	cfg := sh.ecfg()
	sh.cfgDepth++
	out, err := expand.Fields(cfg, words...)
	sh.cfgDepth--
	if err != nil {
		return nil, sh.expandErr(err)
	}
	var n int64
	for _, f := range out {
		n += int64(len(f)) + 1
	}
	if err := sh.charge(n * resources.CostExpandB); err != nil {
		return nil, err
	}
	return out, nil
}

// checkBraces reserves the memory a large brace expansion would need before
// the expander builds it, so {1..10000000} dies of memory, not the host.
func (sh *Shell) checkBraces(words []*syntax.Word) error {
	var total int64
	for _, w := range words {
		for _, p := range w.Parts {
			lit, ok := p.(*syntax.Lit)
			if !ok || !strings.Contains(lit.Value, "..") {
				continue
			}
			for _, m := range braceRange.FindAllStringSubmatch(lit.Value, -1) {
				a, b := atoiSafe(m[1]), atoiSafe(m[2])
				n := b - a
				if n < 0 {
					n = -n
				}
				width := int64(max(len(m[1]), len(m[2]))) + 1
				total += (n + 1) * (width + 16)
			}
		}
	}
	if total > 1<<20 {
		if err := sh.rt.Meter.Reserve(total); err != nil {
			sh.fatal(err)
			return err
		}
		sh.rt.Meter.Release(total)
		if err := sh.charge(total); err != nil {
			return err
		}
	}
	return nil
}

var braceRange = regexp.MustCompile(`\{(-?\d{1,18})\.\.(-?\d{1,18})(?:\.\.-?\d+)?\}`)

func atoiSafe(s string) int64 {
	var n int64
	neg := strings.HasPrefix(s, "-")
	for _, c := range strings.TrimPrefix(s, "-") {
		n = n*10 + int64(c-'0')
	}
	if neg {
		return -n
	}
	return n
}

func (sh *Shell) expandErr(err error) error {
	if sh.exiting {
		return sh.rt.Meter.Err()
	}
	return err
}

// literal expands a word to one string without splitting or globbing.
func (sh *Shell) literal(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	if v, ok := sh.preExpanded[w]; ok {
		return v, nil
	}
	cfg := sh.ecfg()
	sh.cfgDepth++
	s, err := expand.Literal(cfg, w)
	sh.cfgDepth--
	if err != nil {
		return "", sh.expandErr(err)
	}
	if err := sh.charge(int64(len(s)) * resources.CostExpandB); err != nil {
		return "", err
	}
	return s, nil
}

// pattern expands a word as a shell pattern (quoted parts escaped).
func (sh *Shell) pattern(w *syntax.Word) (string, error) {
	cfg := sh.ecfg()
	sh.cfgDepth++
	s, err := expand.Pattern(cfg, w)
	sh.cfgDepth--
	if err != nil {
		return "", sh.expandErr(err)
	}
	return s, nil
}

func (sh *Shell) document(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	cfg := sh.ecfg()
	sh.cfgDepth++
	s, err := expand.Document(cfg, w)
	sh.cfgDepth--
	if err != nil {
		return "", sh.expandErr(err)
	}
	return s, nil
}

// arithTop evaluates the expression of ((...)) or let (prefix names it in
// bash's diagnostics); right is the closing "))".
func (sh *Shell) arithTop(e syntax.ArithmExpr, right syntax.Pos, prefix string) (int, error) {
	return sh.arithTopAt(e, syntax.Pos{}, right, prefix)
}

// arithTopAt is arithTop with left, where the expression's text begins
// (after "((").
func (sh *Shell) arithTopAt(e syntax.ArithmExpr, left, right syntax.Pos, prefix string) (int, error) {
	if err := sh.charge(resources.CostNode); err != nil {
		return 0, err
	}
	cfg := sh.ecfg()
	sh.cfgDepth++
	n, err := expand.ArithmTop(cfg, e, left, right, prefix)
	sh.cfgDepth--
	if err != nil {
		return 0, sh.expandErr(err)
	}
	return n, nil
}

// arithString evaluates s as an arithmetic expression (a -eq operand, a
// declare -i value, an array index). Text the parser rejects is evaluated
// as bash does, by the text evaluator, which also words the errors.
func (sh *Shell) arithString(s string) (int, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	if command.CheckSyntaxNest(s) != nil {
		return 0, errors.New(s + ": expression recursion level exceeded")
	}
	e, err := sh.rt.parser().Arithmetic(strings.NewReader(s))
	if err != nil || e == nil {
		if err := sh.charge(int64(len(s)) * resources.CostParseByte); err != nil {
			return 0, err
		}
		cfg := sh.ecfg()
		sh.cfgDepth++
		n, err := expand.ArithString(cfg, s, false)
		sh.cfgDepth--
		if err != nil {
			return 0, sh.expandErr(err)
		}
		return int(n), nil
	}
	// the text ends at the end of s (bash's messages keep trailing blanks)
	return sh.arithTop(e, syntax.NewPos(uint(len(s)), 1, uint(len(s)+1)), "")
}

func matchPattern(pat, s string, ext bool) bool {
	mode := pattern.EntireString
	if ext {
		mode |= pattern.ExtendedOperators
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return pat == s
	}
	re, err := regexp.Compile("(?s)" + expr)
	if err != nil {
		return false
	}
	return re.MatchString(s)
}

func (sh *Shell) readDirGlob(dir string) ([]fs.DirEntry, error) {
	infos, err := sh.rt.FS.ReadDir(command.Join(sh.dir, dir))
	if err != nil {
		return nil, err
	}
	sh.charge(int64(len(infos)) * 10)
	out := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		out[i] = dirEntry{fi}
	}
	return out, nil
}

type dirEntry struct{ fi command.FileInfo }

func (d dirEntry) Name() string               { return d.fi.Name }
func (d dirEntry) IsDir() bool                { return d.fi.IsDir() }
func (d dirEntry) Type() fs.FileMode          { return d.fi.Mode.Type() }
func (d dirEntry) Info() (fs.FileInfo, error) { return fileInfo{d.fi}, nil }

type fileInfo struct{ fi command.FileInfo }

func (f fileInfo) Name() string       { return f.fi.Name }
func (f fileInfo) Size() int64        { return f.fi.Size }
func (f fileInfo) Mode() fs.FileMode  { return f.fi.Mode }
func (f fileInfo) ModTime() time.Time { return f.fi.ModTime }
func (f fileInfo) IsDir() bool        { return f.fi.IsDir() }
func (f fileInfo) Sys() any           { return nil }

// memWriter collects command-substitution output, reserving modeled memory
// for its buffer before the buffer grows (the old and the new one both live
// while the contents are copied).
type memWriter struct {
	sh       *Shell
	buf      []byte
	reserved int64
}

func (m *memWriter) Write(p []byte) (int, error) {
	if need := len(m.buf) + len(p); need > cap(m.buf) {
		newCap := max(need+need/4, 512)
		if err := m.sh.rt.Meter.Reserve(int64(newCap)); err != nil {
			return 0, err
		}
		nb := make([]byte, len(m.buf), newCap)
		copy(nb, m.buf)
		m.sh.rt.Meter.Release(int64(cap(m.buf)))
		m.reserved += int64(newCap - cap(m.buf))
		m.buf = nb
	}
	m.buf = append(m.buf, p...)
	return len(p), nil
}

// text returns the output as a string: the copy is reserved before it is
// made, and the buffer is then dropped and released.
func (m *memWriter) text() (string, error) {
	if err := m.sh.rt.Meter.Reserve(int64(len(m.buf))); err != nil {
		m.release()
		return "", err
	}
	s := string(m.buf)
	m.sh.rt.Meter.Release(int64(len(m.buf)))
	m.release()
	return s, nil
}

func (m *memWriter) release() {
	m.sh.rt.Meter.Release(m.reserved)
	m.reserved, m.buf = 0, nil
}

func (sh *Shell) cmdSubst(cs *syntax.CmdSubst) (string, error) {
	// $(< file) reads the file directly.
	if len(cs.Stmts) == 1 && cs.Stmts[0].Cmd == nil && len(cs.Stmts[0].Redirs) == 1 &&
		cs.Stmts[0].Redirs[0].Op == syntax.RdrIn {
		name, err := sh.literal(cs.Stmts[0].Redirs[0].Word)
		if err != nil {
			return "", err
		}
		b, err := sh.readFile(name)
		if err != nil {
			sh.errf("%s: %s", name, command.Message(err))
			sh.substSt, sh.substRan = 1, true
			return "", nil
		}
		sh.substSt, sh.substRan = 0, true
		if err := sh.checkSize(2 * int64(len(b))); err != nil {
			return "", err
		}
		return string(b), nil
	}
	child := sh.fork()
	if child == nil {
		return "", sh.rt.Meter.Err()
	}
	mw := &memWriter{sh: sh}
	child.fds[1] = &fdesc{w: mw}
	child.inComsub = true
	child.traceDepth++
	if !sh.inTrap {
		// bash numbers the lines of a command substitution from the
		// line of the command it is in
		child.lineBase, child.lineSkew = sh.lineno-int(cs.Left.Line()), 0
	}
	if !sh.opts.inheritErrexit {
		child.opts.errexit = false // bash: $(...) does not inherit set -e
	}
	if text, ok := deferredComsub(cs); ok {
		child.comsubText(text, sh.lineno)
	} else {
		child.stmts(cs.Stmts)
	}
	st := sh.join(child)
	out, err := mw.text()
	if err != nil {
		sh.fatal(err)
	}
	sh.substSt, sh.substRan = st, true
	sh.status = st
	if sh.exiting {
		return "", sh.rt.Meter.Err()
	}
	return out, nil
}

// comsubText runs the text of a command substitution that is parsed when
// it runs ($((1) + (2))): the commands before a syntax error run, then the
// error is reported as bash does ("NAME: command substitution: line N")
// with status 2. Its lines count from line, the command's.
func (sh *Shell) comsubText(text string, line int) {
	if !sh.inTrap {
		sh.lineBase = line - 1
	}
	f, synErr, err := sh.parseOrPrefix(text, "command substitution")
	if err != nil {
		if !sh.exiting {
			sh.errf("%v", err)
			sh.status = 2
		}
		return
	}
	sh.status = 0
	if f != nil {
		sh.stmts(f.Stmts)
	}
	if synErr != nil && !sh.exiting && !sh.stopped() {
		sh.reportSyntaxError(text, *synErr, sh.errName()+": command substitution")
	}
}

// procSub is a live process substitution: a child process connected to the
// command line through a pipe named /dev/fd/N.
type procSub struct {
	path string
	r    *sched.PipeReader // held by the consumer of <(...)
	w    *sched.PipeWriter // held by the consumer of >(...)
	out  bool
}

// procSubst starts <(cmd) or >(cmd) and returns the path that names it.
func (sh *Shell) procSubst(ps *syntax.ProcSubst) (string, error) {
	if len(sh.psubs) >= 32 {
		return "", errors.New("too many process substitutions")
	}
	child := sh.fork()
	if child == nil {
		return "", sh.rt.Meter.Err()
	}
	child.traceDepth++
	if !sh.inTrap {
		child.lineBase, child.lineSkew = sh.lineno-int(ps.OpPos.Line()), 0 // as in $(...)
	}
	if err := sh.rt.Meter.Reserve(resources.MemPipe); err != nil {
		sh.fatal(err)
		child.finish()
		return "", err
	}
	r, w := sh.rt.Sched.NewPipe(resources.MemPipe)
	out := ps.Op == syntax.CmdOut
	p := &procSub{path: fmt.Sprintf("/dev/fd/%d", 63-len(sh.psubs)), r: r, w: w, out: out}
	if out {
		child.fds[0] = &fdesc{r: r}
		p.r = nil
	} else {
		child.fds[1] = &fdesc{w: w}
		p.w = nil
	}
	sh.psubs = append(sh.psubs, p)
	rt := sh.rt
	sh.rt.Sched.Spawn(func(t *sched.Task) {
		child.task = t
		t.Data = child
		child.guard(func() { child.stmts(ps.Stmts) })
		child.finish()
		if out {
			r.Close()
		} else {
			w.Close()
		}
		rt.Meter.Release(resources.MemPipe)
	})
	return p.path, nil
}

// closeProcSubs closes the consumer ends of substitutions made since mark.
func (sh *Shell) closeProcSubs(mark int) {
	for _, p := range sh.psubs[mark:] {
		if p.r != nil {
			p.r.Close()
		}
		if p.w != nil {
			p.w.Close()
		}
	}
	sh.psubs = sh.psubs[:mark]
}

// procPipes maps the live substitution paths for a command's view.
func (sh *Shell) procPipes() map[string]vfs.Streams {
	if len(sh.psubs) == 0 {
		return nil
	}
	m := make(map[string]vfs.Streams, len(sh.psubs))
	for _, p := range sh.psubs {
		if p.r != nil {
			m[p.path] = vfs.Streams{Stdin: p.r}
		} else {
			m[p.path] = vfs.Streams{Stdout: p.w}
		}
	}
	return m
}

func (sh *Shell) procSubByPath(path string) *procSub {
	for _, p := range sh.psubs {
		if p.path == path {
			return p
		}
	}
	return nil
}

func (sh *Shell) readFile(name string) ([]byte, error) {
	p := command.Join(sh.dir, name)
	if ps := sh.procSubByPath(p); ps != nil && ps.r != nil {
		return io.ReadAll(ps.r)
	}
	switch sh.rt.FS.StdDevice(p) {
	case 0:
		return io.ReadAll(sh.stdin())
	}
	b, err := sh.rt.FS.ReadFile(p)
	if err == nil {
		err = sh.charge(int64(len(b)))
	}
	return b, err
}

// fits fails (stopping the shell) when n more bytes would not fit the
// memory limit.
func (sh *Shell) fits(n int64) error {
	if err := sh.rt.Meter.Reserve(n); err != nil {
		sh.fatal(err)
		return err
	}
	sh.rt.Meter.Release(n)
	return nil
}

// checkSize fails when n more bytes would not fit the memory limit.
func (sh *Shell) checkSize(n int64) error {
	if err := sh.rt.Meter.Reserve(n); err != nil {
		sh.fatal(err)
		return err
	}
	sh.rt.Meter.Release(n)
	return sh.charge(n / 16)
}
