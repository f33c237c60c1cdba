package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/sched"
)

type options struct {
	errexit, nounset, xtrace, pipefail, noglob, noclobber, allexport, verbose bool
	errtrace                                                                  bool // set -E: functions and subshells run the ERR trap
	functrace                                                                 bool // set -T: functions and subshells inherit the RETURN trap
	nullglob, dotglob, extglob, globstar, nocaseglob, failglob                bool
	inheritErrexit                                                            bool   // shopt inherit_errexit: $(...) keeps set -e
	expandAliases                                                             bool   // shopt expand_aliases: a non-interactive bash expands no alias without it
	shiftVerbose                                                              bool   // shopt shift_verbose: shift past $# says so
	xpgEcho                                                                   bool   // shopt xpg_echo: echo expands escapes
	shoptFlipped                                                              uint64 // the other shopt options away from their defaults, by shoptDefs index
}

// fdesc is one open descriptor of a process.
type fdesc struct {
	r io.Reader
	w io.Writer
}

// Shell is one shell process: variables, functions, options, descriptors and
// control-flow state. Subshells are deep copies.
type Shell struct {
	rt      *Runtime
	scopes  []map[string]*Var
	funcs   map[string]*syntax.Stmt
	aliases map[string]string
	opts    options
	dir     string
	params  []string
	arg0    string
	name    string // diagnostic prefix: "bash" or the script path
	status  int
	lastBg  int
	pid     int
	ppid    int
	pgid    int
	fds     [10]*fdesc
	traps   map[string]string
	jobs    []*job
	task    *sched.Task
	umask   int
	dirs    []string

	exiting   bool
	exitCode  int
	brk, cont int
	returning bool
	inCond    int
	loopDepth int
	funcNames []string
	lineno    int
	varMem    int64
	top       bool // the environment's main shell
	persist   bool // exec with only redirections: keep them
	substSt   int
	substRan  bool
	optind    int // getopts position inside the current argument
	inTrap    bool
	trapLines bool // the running trap handler numbers its own lines
	// lineBase is added to the line numbers of the source being run: eval
	// text counts from the last line of its eval command (curStmt).
	lineBase    int
	curStmt     *syntax.Stmt
	aliasDepth  int
	sourceDepth int
	nest        int   // nested execution levels (see nest.go), inherited by subshells and child shells
	procMem     int64 // memory reserved by fork for this subshell besides varMem
	getoptsLast int
	curBuiltin  string
	cfg         *expand.Config
	cfgDepth    int
	cmdPID      int // command process running on this shell's task
	topPID      int // $$: the PID of the shell process (not of subshells)
	subshell    bool
	// discarding: an expansion error (or a readonly assignment) abandons
	// the rest of the input unit being run, as bash's jump to top level
	// does; the unit loop (script, eval, source, trap) clears it.
	discarding bool
	// preReturn: the status before the last return builtin, the $? a
	// RETURN trap sees; inReturnTrap: a RETURN trap is running (bash
	// would recurse on a return inside it)
	preReturn    int
	inReturnTrap bool
	// discardCode: the status bash's main reader loop and a subshell keep
	// after a discard (2 for a readonly ${x:=}, else 1); eval, source,
	// bash -c and $(...) give 1. unitDepth counts nested reader loops
	// (eval, source); inComsub marks a command substitution's shell.
	discardCode int
	unitDepth   int
	inComsub    bool
	testNeg     bool // the [[ ]] term being traced is under !
	traceDepth  int  // command and process substitutions around: set -x repeats PS4's first character
	// preExpanded: declaration values expanded once for set -x's trace
	preExpanded map[*syntax.Word]string
	tracedFuncs map[string]bool // declare -ft: inherit the RETURN trap
	selfPending []int           // trapped signals a task-less subshell sent itself
	killedBy    int             // the signal that ended a task-less subshell
	signaled    signaled        // a foreground child that a signal ended, to report
	jobStmt     *syntax.Stmt    // the statement a pipeline's or background job's shell runs
	disabled    map[string]bool // builtins that enable -n turned off
	// lineSkew: bash's line counter after a discarded command continues
	// from that command's line (topLine, the line at the level of the
	// unit loop, outside the functions it calls), not from where its
	// parser was; later lines read lower by this
	lineSkew  int
	topLine   int
	unitFuncs int // the function depth of the running unit loop (script, eval, source)
	// funcOrigin: where each function body was defined, so that its lines
	// and diagnostics count as bash's parser counted them then
	funcOrigin map[*syntax.Stmt]origin
	cmdString  bool // runs a -c string (the main shell too): expansion errors exit 127, not 1
	execLookup bool // resolve like execvp (default PATH) for System.Exec
	psubs      []*procSub
	expFuncs   map[string]bool // export -f
	roFuncs    map[string]bool // readonly -f (copy on write)
	modeFlag   string          // $-'s last flag: c for bash -c, s for a script on stdin
	// frames is bash's call stack for FUNCNAME, BASH_SOURCE and
	// BASH_LINENO: functions and sourced files, over a "main" frame when
	// the shell runs a script file
	frames    []frame
	readDirFn func(string) ([]fs.DirEntry, error)
}

// New returns the environment's main shell.
func New(rt *Runtime) *Shell {
	sh := &Shell{rt: rt, scopes: []map[string]*Var{{}}, funcs: map[string]*syntax.Stmt{},
		dir: "/work", arg0: "bash", name: "bash", top: true, cmdString: true, umask: 0o022}
	p := rt.Sched.NewProc(0, 0, []string{"bash"}, sh.dir)
	sh.pid, sh.pgid = p.PID, p.PID
	rt.shellPID = p.PID
	sh.topPID = p.PID
	// Variables are never mutated in place once stored, so every fresh
	// shell can start from one shared template.
	sh.scopes[0] = maps.Clone(initialVars(rt.Hostname))
	return sh
}

var (
	initMu   sync.Mutex
	initVars = map[string]map[string]*Var{}
)

func initialVars(host string) map[string]*Var {
	initMu.Lock()
	defer initMu.Unlock()
	if m, ok := initVars[host]; ok {
		return m
	}
	m := map[string]*Var{}
	for _, kv := range [][2]string{
		{"HOME", "/root"}, {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"PWD", "/work"}, {"USER", "root"},
		{"LOGNAME", "root"}, {"SHELL", "/bin/bash"}, {"LANG", "C.UTF-8"}, {"TMPDIR", "/tmp"},
		{"SHLVL", "1"}, {"HOSTNAME", host}, {"TERM", "dumb"}} {
		m[kv[0]] = &Var{Variable: expand.Variable{Set: true, Kind: expand.String, Str: kv[1], Exported: true}}
	}
	for _, kv := range [][2]string{{"IFS", " \t\n"}, {"OPTIND", "1"}, {"PS4", "+ "},
		{"BASH_VERSION", "5.2.15(1)-release"}, {"UID", "0"}, {"EUID", "0"}, {"HOSTTYPE", "x86_64"},
		{"OSTYPE", "linux-gnu"}, {"MACHTYPE", "x86_64-pc-linux-gnu"}, {"BASH", "/bin/bash"}} {
		m[kv[0]] = &Var{Variable: expand.Variable{Set: true, Kind: expand.String, Str: kv[1]}}
	}
	m["BASH_VERSINFO"] = &Var{Variable: expand.Variable{Set: true, Kind: expand.Indexed, ReadOnly: true,
		List: []string{"5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"}}}
	initVars[host] = m
	return m
}

// Dir is the working directory.
func (sh *Shell) Dir() string { return sh.dir }

// Terminated reports whether the shell exited.
func (sh *Shell) Terminated() bool { return sh.exiting }

// ExitCode is the status given to exit (or the last status).
func (sh *Shell) ExitCode() int { return sh.exitCode }

// SetStreams sets descriptors 0, 1 and 2.
func (sh *Shell) SetStreams(stdin io.Reader, stdout, stderr io.Writer) {
	sh.fds[0], sh.fds[1], sh.fds[2] = &fdesc{r: stdin}, &fdesc{w: stdout}, &fdesc{w: stderr}
}

// SetParams sets $0 and the positional parameters.
func (sh *Shell) SetParams(arg0 string, params []string) {
	if arg0 != "" {
		sh.arg0 = arg0
	}
	sh.params = params
}

func (sh *Shell) stdout() io.Writer { return sh.writer(1) }
func (sh *Shell) stderr() io.Writer { return sh.writer(2) }

func (sh *Shell) writer(n int) io.Writer {
	if f := sh.fds[n]; f != nil && f.w != nil {
		return f.w
	}
	return badFD{}
}

func (sh *Shell) stdin() io.Reader {
	if f := sh.fds[0]; f != nil && f.r != nil {
		return f.r
	}
	return strings.NewReader("")
}

type badFD struct{}

func (badFD) Write([]byte) (int, error) { return 0, errors.New("Bad file descriptor") }

// errf prints a bash-style diagnostic: "bash: line N: msg".
func (sh *Shell) errf(format string, a ...any) {
	fmt.Fprintf(sh.stderr(), "%s: line %d: %s\n", sh.errName(), sh.lineno, fmt.Sprintf(format, a...))
}

// errName is the diagnostic prefix; bash -c names functions' source
// "environment", bash reading a script from stdin "main".
func (sh *Shell) errName() string {
	if len(sh.funcNames) > 0 && sh.name == "bash" {
		if sh.cmdString {
			return "environment"
		}
		return "main"
	}
	return sh.name
}

func (sh *Shell) charge(n int64) error {
	if err := sh.rt.charge(n); err != nil {
		sh.fatal(err)
		return err
	}
	return nil
}

// fatal stops the shell when the process must stop (exhaustion, kill,
// cancellation).
func (sh *Shell) fatal(err error) {
	if sh.exiting {
		return
	}
	sh.exiting = true
	var ex *resources.ExhaustedError
	switch {
	case errors.As(err, &ex), errors.Is(err, ErrCancelled):
		sh.exitCode = 137
	case sh.task != nil && sh.task.Killed() != 0:
		sh.exitCode = 128 + sh.task.Killed()
	default:
		sh.exitCode = 1
	}
	sh.status = sh.exitCode
}

// stopped reports whether execution of the current list must stop.
func (sh *Shell) stopped() bool {
	return sh.exiting || sh.discarding || sh.returning || sh.brk > 0 || sh.cont > 0
}

// Parse parses bash source, charging for it. Like bash, a here-document
// left open at the end of the input is closed there, with a warning.
func (sh *Shell) Parse(src, name string) (*syntax.File, error) {
	if err := sh.charge(int64(len(src))*resources.CostParseByte + 50); err != nil {
		return nil, err
	}
	if err := command.CheckSyntaxNest(src); err != nil {
		return nil, syntax.ParseError{Filename: name, Pos: syntax.NewPos(0, 1, 1), Text: err.Error()}
	}
	f, err := sh.parseDeferring(src, name)
	for tries := 0; err != nil && tries < 8; tries++ {
		var pe syntax.ParseError
		if !errors.As(err, &pe) || !strings.HasPrefix(pe.Text, "unclosed here-document `") {
			break
		}
		word := strings.TrimSuffix(strings.TrimPrefix(pe.Text, "unclosed here-document `"), "`")
		lines := strings.Count(src, "\n")
		if !strings.HasSuffix(src, "\n") {
			lines++
			src += "\n"
		}
		fmt.Fprintf(sh.stderr(), "%s: line %d: warning: here-document at line %d delimited by end-of-file (wanted `%s')\n",
			sh.name, lines, pe.Pos.Line(), word)
		src += word + "\n"
		f, err = sh.parseDeferring(src, name)
	}
	return f, err
}

// ParseErrorText renders a parse error the way bash reports it.
func ParseErrorText(prefix string, err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: line %d: syntax error: %s\n", prefix, pe.Pos.Line(), pe.Text)
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return fmt.Sprintf("%s: line %d: syntax error: %s\n", prefix, le.Pos.Line(), le.Error())
	}
	return fmt.Sprintf("%s: %v\n", prefix, err)
}

// RunSource parses and runs src; on a syntax error only the commands
// before it run, and the status is 2 (see runSyntaxError).
func (sh *Shell) RunSource(src, name string) int {
	f, err := sh.Parse(src, name)
	if err != nil {
		if sh.exiting {
			return sh.exitCode
		}
		return sh.runSyntaxError(src, name, err)
	}
	sh.units(f.Stmts)
	if sh.exiting {
		return sh.exitCode
	}
	return sh.status
}

// RunFile runs an already parsed file.
func (sh *Shell) RunFile(f *syntax.File) int {
	sh.units(f.Stmts)
	if sh.exiting {
		return sh.exitCode
	}
	return sh.status
}

// units runs the commands of a script, eval or source like bash's reader
// loop: a discarded command ends the rest of its input unit (the commands
// up to the end of the line, or the whole compound command) with status 1,
// then the next line runs (also under set -e, as in bash).
func (sh *Shell) units(list []*syntax.Stmt) {
	// every reader loop (the script's, eval's and source's, as bash's
	// parse_and_execute) continues its line count from a discarded
	// command's line; trap handlers keep theirs
	top := !sh.inTrap
	unitEnd := 0
	skew := func() {
		if top && unitEnd > 0 {
			sh.lineSkew = sh.lineBase + unitEnd - sh.topLine
		}
		unitEnd = 0
	}
	for i, st := range list {
		if sh.discarding && sh.subshell {
			// in a subshell bash's jump to top level ends the subshell
			// (eval, source and traps do not catch it)
			return
		}
		if sh.discarding {
			if unitEnd == 0 {
				unitEnd = int(list[i-1].End().Line())
			}
			if list[i-1].End().Line() >= st.Pos().Line() {
				unitEnd = max(unitEnd, int(st.End().Line()))
				continue
			}
			skew()
			sh.endDiscard()
		}
		if sh.stopped() {
			return
		}
		sh.stmt(st)
	}
	if sh.discarding && !sh.subshell {
		if unitEnd == 0 && len(list) > 0 {
			unitEnd = int(list[len(list)-1].End().Line())
		}
		skew()
		sh.endDiscard()
	}
}

// origin is the line context a function was defined in: the line base
// and skew of its text and the name its diagnostics give (bash's
// BASH_SOURCE of the function).
type origin struct {
	base, skew int
	name       string
}

// frame is one level of the call stack.
type frame struct {
	fn, src string // the function ("source", "main") and the file its code is in
	line    int    // the line it was called from
}

// sourceName is how bash's BASH_SOURCE names the code of name (a
// diagnostic name): main or environment for a script on stdin or -c.
func (sh *Shell) sourceName(name string) string {
	if name == "bash" {
		if sh.cmdString {
			return "environment"
		}
		return "main"
	}
	return name
}

// unitCtx is the line state of a unit loop, saved around a nested one.
type unitCtx struct{ skew, topLine, funcs int }

// enterUnit starts a nested unit loop (eval, source) at the current
// function depth; skew is its starting line skew.
func (sh *Shell) enterUnit(skew int) unitCtx {
	sh.unitDepth++
	u := unitCtx{sh.lineSkew, sh.topLine, sh.unitFuncs}
	sh.lineSkew, sh.unitFuncs = skew, len(sh.funcNames)
	return u
}

// leaveUnit restores the line state of the enclosing unit loop: bash
// restores its line counter when eval or source returns.
func (sh *Shell) leaveUnit(u unitCtx) {
	sh.unitDepth--
	sh.lineSkew, sh.topLine, sh.unitFuncs = u.skew, u.topLine, u.funcs
}

// discard abandons the current input unit.
func (sh *Shell) discard() {
	sh.discarding = true
	sh.status = 1
	sh.discardCode = 1
}

// endDiscard ends a discarded unit.
func (sh *Shell) endDiscard() {
	sh.discarding = false
	sh.status = 1
	if sh.discardCode == 2 && sh.unitDepth == 0 && !sh.cmdString {
		sh.status = 2
	}
}

func (sh *Shell) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		if sh.stopped() {
			return
		}
		sh.stmt(st)
	}
}

// bashLine is the line bash gives a command (its $LINENO and the line of
// its errors): the line where its parser was when it built the command.
// After a command name that is the end of the next token, which it reads
// to tell a simple command from a function definition; after an
// assignment or a redirection it is the end of that element; ((...)) is
// one token.
func bashLine(st *syntax.Stmt) uint {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		type elem struct {
			pos, tokEnd, end syntax.Pos // tokEnd: the end of its first token
			word             bool
		}
		var els []elem
		for _, a := range c.Assigns {
			els = append(els, elem{a.Pos(), a.End(), a.End(), false})
		}
		for _, w := range c.Args {
			els = append(els, elem{w.Pos(), w.End(), w.End(), true})
		}
		for _, r := range st.Redirs {
			// the operator is a token of its own
			els = append(els, elem{r.Pos(), r.OpPos, r.End(), false})
		}
		if len(els) == 0 {
			break
		}
		slices.SortFunc(els, func(a, b elem) int { return int(a.pos.Offset()) - int(b.pos.Offset()) })
		first := els[0]
		if first.word && len(els) > 1 {
			return els[1].tokEnd.Line()
		}
		return first.end.Line()
	case *syntax.ArithmCmd:
		return c.Right.Line()
	case *syntax.LetClause:
		if len(c.Exprs) > 0 {
			return c.Exprs[0].End().Line()
		}
	case *syntax.DeclClause:
		if len(c.Args) > 0 {
			return c.Args[0].End().Line()
		}
	}
	return st.Pos().Line()
}

func errexitEligible(c syntax.Command) bool {
	switch c := c.(type) {
	case *syntax.CallExpr, *syntax.Subshell, *syntax.ArithmCmd, *syntax.TestClause,
		*syntax.DeclClause, *syntax.LetClause, *syntax.TimeClause:
		return true
	case *syntax.BinaryCmd:
		return c.Op == syntax.Pipe || c.Op == syntax.PipeAll
	}
	return false
}

func (sh *Shell) stmt(st *syntax.Stmt) {
	if !sh.inTrap || sh.trapLines {
		// $LINENO inside an ERR trap handler is the line that triggered
		// it; other handlers count the lines of their own text.
		sh.lineno = sh.lineBase + int(bashLine(st))
		if !sh.inTrap {
			sh.lineno -= sh.lineSkew
			if len(sh.funcNames) == sh.unitFuncs {
				sh.topLine = sh.lineno
			}
		}
		sh.curStmt = st
	}
	if sh.charge(resources.CostNode) != nil {
		return
	}
	if st.Background {
		sh.background(st)
		sh.runTraps()
		return
	}
	if st.Coprocess {
		sh.unsupported("coproc", "coprocesses are not supported")
		return
	}
	if st.Negated {
		sh.inCond++
	}
	if c, ok := st.Cmd.(*syntax.CallExpr); ok {
		// Simple commands expand their words before redirecting.
		sh.call(c, st.Redirs)
	} else if len(st.Redirs) > 0 {
		saved := sh.fds
		sh.persist = false
		mark := len(sh.psubs)
		defer func() {
			if len(sh.psubs) > mark {
				sh.closeProcSubs(mark)
			}
		}()
		cleanup, err := sh.redirect(st.Redirs)
		if err != nil {
			sh.status = sh.redirStatus(err)
			if sh.exiting {
				return
			}
		} else {
			if st.Cmd != nil {
				sh.command(st.Cmd)
			} else {
				sh.status = 0
			}
			if sh.persist {
				sh.persist = false
			} else {
				sh.fds = saved
				cleanup()
			}
		}
	} else if st.Cmd != nil {
		sh.command(st.Cmd)
	}
	if sh.signaled.sig != 0 && st != sh.jobStmt {
		sh.reportSignaled(st)
	}
	if st.Negated {
		sh.inCond--
		if sh.status == 0 {
			sh.status = 1
		} else {
			sh.status = 0
		}
	} else if sh.status != 0 && !sh.stopped() && errexitEligible(st.Cmd) && sh.inCond == 0 {
		if t, ok := sh.traps["ERR"]; ok && t != "" && !sh.inTrap && (len(sh.funcNames) == 0 || sh.opts.errtrace) {
			sh.runTrap(t, false)
		}
		if sh.opts.errexit {
			sh.exit(sh.status)
		}
	}
	sh.runTraps()
}

// exit ends the shell with status.
func (sh *Shell) exit(status int) {
	sh.exiting = true
	sh.exitCode = status
	sh.status = status
}

func (sh *Shell) command(c syntax.Command) {
	switch c := c.(type) {
	case *syntax.CallExpr:
		sh.call(c, nil)
	case *syntax.Block:
		sh.stmts(c.Stmts)
	case *syntax.Subshell:
		child := sh.fork()
		if child == nil {
			return
		}
		child.stmts(c.Stmts)
		sh.status = sh.join(child)
	case *syntax.IfClause:
		sh.ifClause(c)
	case *syntax.WhileClause:
		sh.whileClause(c)
	case *syntax.ForClause:
		sh.forClause(c)
	case *syntax.CaseClause:
		if sh.opts.xtrace {
			sh.traceLine("case " + printNode(c.Word) + " in")
		}
		sh.caseClause(c)
	case *syntax.BinaryCmd:
		sh.binary(c)
	case *syntax.FuncDecl:
		if c.Name == nil || c.Body == nil {
			sh.errf("syntax error near unexpected token `('")
			sh.status = 2
			return
		}
		if sh.roFuncs[c.Name.Value] {
			sh.errf("%s: readonly function", c.Name.Value)
			sh.status = 1
			return
		}
		sh.funcs[c.Name.Value] = c.Body
		if sh.funcOrigin == nil {
			sh.funcOrigin = map[*syntax.Stmt]origin{}
		}
		sh.funcOrigin[c.Body] = origin{sh.lineBase, sh.lineSkew, sh.name}
		sh.status = 0
	case *syntax.ArithmCmd:
		if sh.opts.xtrace {
			sh.traceArithCmd(c)
		}
		n, err := sh.arithTopAt(c.X, syntax.NewPos(c.Left.Offset()+2, c.Left.Line(), c.Left.Col()+2), c.Right, "((")
		if err != nil {
			sh.exprError(err)
			return
		}
		sh.status = b2i(n == 0)
	case *syntax.TestClause:
		ok, err := sh.testExpr(c.X)
		if err != nil {
			if ae, isArith := err.(expand.ArithError); isArith {
				// an arithmetic error in [[ ]] fails it with status 1
				ae.Prefix = "[["
				sh.errf("%v", ae)
				sh.status = 1
				return
			}
			var ue expand.UnsetParameterError
			var fe expand.FatalSubstError
			if errors.As(err, &ue) || errors.As(err, &fe) || strings.HasSuffix(err.Error(), ": bad substitution") {
				sh.wordError(err) // as in any word: the line is abandoned or the shell exits
				return
			}
			sh.errf("%v", err)
			sh.status = 2
			return
		}
		sh.status = b2i(!ok)
	case *syntax.DeclClause:
		sh.declClause(c)
	case *syntax.LetClause:
		if sh.opts.xtrace {
			sh.traceLine(printNode(c))
		}
		sh.status = 1
		for _, e := range c.Exprs {
			n, err := sh.arithTop(e, syntax.Pos{}, "let")
			if err != nil {
				sh.exprError(err)
				return
			}
			sh.status = b2i(n == 0)
		}
	case *syntax.TimeClause:
		start, cpu0 := sh.rt.Sched.Now(), sh.rt.Meter.CPU
		if c.Stmt != nil {
			sh.stmt(c.Stmt)
		}
		real := sh.rt.Sched.Now() - start
		user := float64(sh.rt.Meter.CPU-cpu0) / 1e6
		fmt.Fprintf(sh.stderr(), "\nreal\t%dm%.3fs\nuser\t%dm%.3fs\nsys\t0m0.000s\n",
			int(real.Minutes()), real.Seconds()-60*float64(int(real.Minutes())), int(user/60), user-60*float64(int(user/60)))
	case *syntax.CoprocClause:
		sh.unsupported("coproc", "coprocesses are not supported")
	case *syntax.TestDecl:
		sh.unsupported("@test", "test declarations are not supported")
	default:
		sh.unsupported(fmt.Sprintf("%T", c), "unsupported shell construct")
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unsupported reports a construct ShellSim does not implement.
func (sh *Shell) unsupported(what, msg string) {
	sh.rt.Tel.unsupported("shell:" + what)
	sh.errf("%s: %s in shellsim", what, strings.TrimSuffix(msg, " in shellsim"))
	sh.status = 2
}

func (sh *Shell) exprError(err error) {
	var ex *resources.ExhaustedError
	if errors.As(err, &ex) || errors.Is(err, command.ErrStopped) {
		sh.fatal(err)
		return
	}
	var ue expand.UnsetParameterError
	var fe expand.FatalSubstError
	if errors.As(err, &ue) || errors.As(err, &fe) {
		if fe.Text != "" {
			sh.errf("%s", fe.Error())
		} else {
			sh.errf("%s", ue.Error())
		}
		// A non-interactive shell exits on ${x:?} and set -u errors: bash
		// -c exits 127 (1 under set -e), bash FILE, bash < FILE and
		// subshells exit 1.
		if sh.cmdString && !sh.subshell && !sh.opts.errexit {
			sh.exit(127)
		} else {
			sh.exit(1)
		}
		return
	}
	sh.errf("%s", strings.TrimPrefix(err.Error(), "1:1: "))
	sh.status = 1
}

// wordError reports a failed word expansion; like bash, a non-interactive
// shell abandons the command line being run (status 1), and exits on
// ${x:?} and set -u errors.
func (sh *Shell) wordError(err error) {
	sh.exprError(err)
	var ae expand.ArithError
	if !sh.exiting && errors.As(err, &ae) && ae.Subscript && sh.cmdString && !sh.subshell {
		// bash -c ends on an error in a subscript or integer assignment
		sh.exit(1)
	}
	if !sh.exiting {
		sh.discard()
		var ad expand.AssignDefaultError
		var ro errReadonly
		if errors.As(err, &ad) && errors.As(err, &ro) {
			sh.discardCode = 2
		}
	}
}

func (sh *Shell) ifClause(c *syntax.IfClause) {
	for c != nil {
		if len(c.Cond) == 0 && !c.ThenPos.IsValid() { // else
			sh.stmts(c.Then)
			return
		}
		sh.inCond++
		sh.stmts(c.Cond)
		sh.inCond--
		if sh.stopped() {
			return
		}
		if sh.status == 0 {
			sh.stmts(c.Then)
			return
		}
		c = c.Else
	}
	sh.status = 0
}

// loopControl consumes break/continue for one loop level; it reports whether
// the loop must end.
func (sh *Shell) loopControl() bool {
	if sh.discarding {
		return true
	}
	if sh.brk > 0 {
		sh.brk--
		return true
	}
	if sh.cont > 0 {
		sh.cont--
		return sh.cont > 0 // continue N>1 ends this loop too
	}
	return sh.exiting || sh.returning
}

func (sh *Shell) whileClause(c *syntax.WhileClause) {
	sh.loopDepth++
	defer func() { sh.loopDepth-- }()
	last := 0
	for {
		if sh.charge(resources.CostNode) != nil {
			return
		}
		sh.inCond++
		sh.stmts(c.Cond)
		sh.inCond--
		if sh.exiting || sh.returning || sh.discarding {
			return
		}
		if sh.brk > 0 || sh.cont > 0 {
			if sh.loopControl() {
				break
			}
			continue
		}
		if (sh.status == 0) == c.Until {
			break
		}
		sh.stmts(c.Do)
		last = sh.status
		if sh.stopped() {
			if sh.loopControl() {
				break
			}
		}
	}
	if !sh.exiting {
		sh.status = last
	}
}

func (sh *Shell) forClause(c *syntax.ForClause) {
	sh.loopDepth++
	defer func() { sh.loopDepth-- }()
	if c.Select {
		sh.unsupported("select", "select loops are not supported")
		return
	}
	last := 0
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		var items []string
		if l.InPos.IsValid() {
			var err error
			items, err = sh.fields(l.Items...)
			if err != nil {
				sh.wordError(err)
				return
			}
		} else {
			items = append([]string(nil), sh.params...)
		}
		for _, it := range items {
			if sh.charge(resources.CostNode) != nil {
				return
			}
			if sh.opts.xtrace {
				sh.traceLine("for " + l.Name.Value + " in " + strings.Join(traceQuoteAll(items), " "))
			}
			if err := sh.SetVar(l.Name.Value, it); err != nil {
				sh.errf("%v", err)
				sh.status = 1
				return
			}
			sh.stmts(c.Do)
			last = sh.status
			if sh.stopped() && sh.loopControl() {
				break
			}
		}
	case *syntax.CStyleLoop:
		// set -x shows each part as it is evaluated, an omitted one as 1
		var parts [3]string
		if sh.opts.xtrace {
			parts = cStyleParts(l, sh.traceWord)
		}
		trace := func(i int) {
			if sh.opts.xtrace {
				sh.traceLine("(( " + parts[i] + " ))")
			}
		}
		trace(0)
		if l.Init != nil {
			if _, err := sh.arithTop(l.Init, syntax.Pos{}, "(("); err != nil {
				sh.exprError(err)
				return
			}
		}
		for {
			if sh.charge(resources.CostNode) != nil {
				return
			}
			trace(1)
			if l.Cond != nil {
				n, err := sh.arithTop(l.Cond, syntax.Pos{}, "((")
				if err != nil {
					sh.exprError(err)
					return
				}
				if n == 0 {
					break
				}
			}
			sh.stmts(c.Do)
			last = sh.status
			if sh.stopped() && sh.loopControl() {
				break
			}
			trace(2)
			if l.Post != nil {
				if _, err := sh.arithTop(l.Post, syntax.Pos{}, "(("); err != nil {
					sh.exprError(err)
					return
				}
			}
		}
	}
	if !sh.exiting {
		sh.status = last
	}
}

func (sh *Shell) caseClause(c *syntax.CaseClause) {
	word, err := sh.literal(c.Word)
	if err != nil {
		sh.wordError(err)
		return
	}
	sh.status = 0
	matched := false
	for i := 0; i < len(c.Items); i++ {
		it := c.Items[i]
		if !matched {
			for _, pw := range it.Patterns {
				pat, err := sh.pattern(pw)
				if err != nil {
					sh.exprError(err)
					return
				}
				if matchPattern(pat, word, sh.opts.extglob) {
					matched = true
					break
				}
			}
			if !matched {
				continue
			}
		}
		sh.stmts(it.Stmts)
		if sh.stopped() {
			return
		}
		switch it.Op {
		case syntax.Fallthrough:
			continue
		case syntax.Resume, syntax.ResumeKorn:
			matched = false
			continue
		}
		return
	}
}

func (sh *Shell) binary(c *syntax.BinaryCmd) {
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
		sh.inCond++
		sh.stmt(c.X)
		sh.inCond--
		if sh.stopped() {
			return
		}
		if (sh.status == 0) == (c.Op == syntax.AndStmt) {
			sh.stmt(c.Y)
		}
	case syntax.Pipe, syntax.PipeAll:
		var stages []*syntax.Stmt
		var all []bool
		flattenPipe(c, &stages, &all)
		sh.pipeline(stages, all)
	}
}

func flattenPipe(c *syntax.BinaryCmd, stages *[]*syntax.Stmt, all *[]bool) {
	add := func(st *syntax.Stmt, pipeAll bool) {
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) &&
			!st.Negated && !st.Background && len(st.Redirs) == 0 {
			flattenPipe(b, stages, all)
			(*all)[len(*all)-1] = pipeAll
			return
		}
		*stages = append(*stages, st)
		*all = append(*all, pipeAll)
	}
	add(c.X, c.Op == syntax.PipeAll)
	add(c.Y, false)
}

// fork makes a subshell: a deep copy of the shell state with a new PID.
func (sh *Shell) fork() *Shell {
	if sh.nest >= MaxNest {
		sh.nestError()
		return nil
	}
	nvars := 0
	for _, s := range sh.scopes {
		nvars += len(s)
	}
	if sh.charge(resources.CostFork+int64(nvars)*2) != nil {
		return nil
	}
	mem := sh.forkMem()
	if err := sh.rt.Meter.Reserve(mem); err != nil {
		sh.fatal(err)
		return nil
	}
	c := *sh
	c.scopes = make([]map[string]*Var, len(sh.scopes))
	for i, s := range sh.scopes {
		m := make(map[string]*Var, len(s))
		for k, v := range s {
			m[k] = cloneVar(v)
		}
		c.scopes[i] = m
	}
	c.cfg, c.cfgDepth, c.readDirFn = nil, 0, nil
	c.psubs = append([]*procSub(nil), sh.psubs...) // inherited, but closed only by their owner
	c.funcs = maps.Clone(sh.funcs)
	c.aliases = maps.Clone(sh.aliases)
	c.expFuncs = maps.Clone(sh.expFuncs)
	c.funcOrigin = maps.Clone(sh.funcOrigin)
	c.disabled = maps.Clone(sh.disabled)
	c.traps = nil
	for k, v := range sh.traps {
		// ignored signals stay ignored; set -E keeps ERR, set -T RETURN
		if v == "" || k == "ERR" && sh.opts.errtrace || k == "RETURN" && sh.opts.functrace {
			if c.traps == nil {
				c.traps = map[string]string{}
			}
			c.traps[k] = v
		}
	}
	c.jobs = nil
	c.top = false
	c.inComsub, c.preExpanded, c.selfPending, c.killedBy = false, nil, nil, 0
	c.funcNames = append([]string(nil), sh.funcNames...)
	c.frames = append([]frame(nil), sh.frames...)
	c.params = append([]string(nil), sh.params...)
	c.dirs = append([]string(nil), sh.dirs...)
	p := sh.rt.Sched.NewProc(sh.pid, sh.pgid, []string{"bash"}, sh.dir)
	c.pid, c.ppid = p.PID, sh.pid
	c.exiting, c.returning, c.discarding, c.brk, c.cont = false, false, false, 0, 0
	c.loopDepth = 0
	c.subshell = true
	c.nest = sh.nest + 1
	c.procMem = mem - sh.varMem
	return &c
}

// forkMem is the modeled memory of a copy of this shell: its variables,
// one process, and the bookkeeping copied per scope, function frame and
// positional parameter (a subshell of a deep recursion copies all of them).
func (sh *Shell) forkMem() int64 {
	return sh.varMem + resources.MemProcess + frameMem +
		int64(len(sh.scopes))*scopeMem + int64(len(sh.funcNames)+len(sh.params)+len(sh.dirs))*16
}

// join finishes a synchronous subshell and returns its status.
func (sh *Shell) join(c *Shell) int {
	c.finish()
	st := c.status
	if c.exiting {
		st = c.exitCode
	}
	if c.killedBy != 0 && !c.inComsub {
		sh.signaled = signaled{sig: c.killedBy, pid: c.pid}
	}
	if sh.rt.Meter.Stop != resources.None {
		sh.fatal(sh.rt.Meter.Err())
	}
	return st
}

// finish runs the EXIT trap of a subshell or script and releases its memory.
func (sh *Shell) finish() {
	if sh.discarding {
		// A subshell whose command was discarded exits with status 1
		// (2 after a readonly ${x:=}, but for $(...)).
		sh.discarding = false
		sh.status = 1
		if sh.discardCode == 2 && !sh.inComsub {
			sh.status = 2
		}
	}
	sh.runExitTrap()
	if p, ok := sh.rt.Sched.Proc(sh.pid); ok && !sh.top {
		sh.rt.Sched.Reap(p)
	}
	if !sh.top {
		sh.rt.Meter.Release(sh.varMem + sh.procMem)
		sh.varMem = 0
	}
}

func (sh *Shell) runExitTrap() {
	if t, ok := sh.traps["EXIT"]; ok && t != "" {
		delete(sh.traps, "EXIT")
		st := sh.status
		if sh.exiting {
			st = sh.exitCode
		}
		wasExiting := sh.exiting
		sh.exiting = false
		sh.runTrap(t, true)
		if !sh.exiting || wasExiting {
			sh.status = st
			if wasExiting {
				sh.exiting = true
			}
		}
	}
}

// runReturnTrap runs the RETURN trap as a function or sourced file ends;
// returned says it ended by return, whose previous status the handler
// sees as $? (else the last command's). The status stays the function's.
func (sh *Shell) runReturnTrap(returned bool) {
	t, ok := sh.traps["RETURN"]
	if !ok || t == "" || sh.exiting || sh.inReturnTrap {
		return
	}
	st := sh.status
	if returned {
		sh.status = sh.preReturn
	}
	sh.inReturnTrap = true
	sh.runTrap(t, false)
	sh.inReturnTrap = false
	sh.returning = false
	if !sh.exiting {
		sh.status = st
	}
}

// RunExitTrap runs a pending EXIT trap (end of action).
func (sh *Shell) RunExitTrap() { sh.guard(sh.runExitTrap) }

func (sh *Shell) runTrap(src string, ownLines bool) {
	st, line, base := sh.status, sh.lineno, sh.lineBase
	sh.inTrap, sh.trapLines = true, ownLines
	if ownLines {
		sh.lineBase = 0
	}
	err := command.CheckSyntaxNest(src)
	var f *syntax.File
	if err == nil {
		// errors in arithmetic and ${...} show when the handler runs
		f, err = sh.parseDeferring(src, "trap")
	}
	if err == nil {
		sh.units(f.Stmts)
	}
	sh.inTrap, sh.trapLines, sh.lineno, sh.lineBase = false, false, line, base
	if !sh.exiting {
		sh.status = st
	}
}

// runTraps runs handlers of trapped signals that arrived.
func (sh *Shell) runTraps() {
	for len(sh.selfPending) > 0 && !sh.inTrap && !sh.exiting {
		sig := sh.selfPending[0]
		sh.selfPending = sh.selfPending[1:]
		if t, ok := sh.traps[signalName(sig)]; ok && t != "" {
			sh.runTrap(t, true)
		}
	}
	if sh.task == nil || !sh.task.Pending() || sh.inTrap {
		return
	}
	for _, sig := range sh.task.TakeSignals() {
		if t, ok := sh.traps[signalName(sig)]; ok && t != "" {
			sh.runTrap(t, true)
		}
	}
}

// pipeline runs stages concurrently, connected by bounded pipes.
func (sh *Shell) pipeline(stages []*syntax.Stmt, all []bool) {
	n := len(stages)
	tasks := make([]*sched.Task, 0, n)
	statuses := make([]int, n)
	signals := make([]int, n)
	pids := make([]int, n)
	var prevR *sched.PipeReader
	var mem int64
	for i, st := range stages {
		child := sh.fork()
		if child == nil {
			break
		}
		var w *sched.PipeWriter
		var r *sched.PipeReader
		if prevR != nil {
			child.fds[0] = &fdesc{r: prevR}
		}
		if i < n-1 {
			if err := sh.rt.Meter.Reserve(resources.MemPipe); err != nil {
				sh.fatal(err)
				child.finish()
				break
			}
			mem += resources.MemPipe
			r, w = sh.rt.Sched.NewPipe(resources.MemPipe)
			child.fds[1] = &fdesc{w: w}
			if all[i] {
				child.fds[2] = &fdesc{w: w}
			}
		}
		if simpleCommand(st) {
			// bash forks a simple command of a pipeline as the shell
			// itself (a fatal expansion error in bash -c exits 127)
			child.subshell = sh.subshell
		}
		inR, i, st := prevR, i, st
		child.jobStmt, pids[i] = st, child.pid
		tasks = append(tasks, sh.rt.Sched.Spawn(func(t *sched.Task) {
			child.task = t
			t.Data = child
			child.guard(func() { child.stmt(st) })
			child.finish()
			s := child.status
			if child.exiting {
				s = child.exitCode
			}
			signals[i] = child.signaled.sig
			if k := t.Killed(); k != 0 {
				s = 128 + k
				signals[i] = k
			}
			statuses[i] = s
			if w != nil {
				w.Close()
			}
			if inR != nil {
				inR.Close()
			}
		}))
		prevR = r
	}
	if prevR != nil && len(tasks) < n {
		prevR.Close()
	}
	for _, t := range tasks {
		for !t.Done() {
			if err := sh.task.Wait(t); err != nil {
				sh.fatal(err)
				break
			}
		}
	}
	sh.rt.Meter.Release(mem)
	if sh.exiting {
		return
	}
	if sh.rt.Meter.Stop != resources.None {
		sh.fatal(sh.rt.Meter.Err())
		return
	}
	st := statuses[n-1]
	if sh.opts.pipefail {
		for _, s := range statuses {
			if s != 0 {
				st = s
			}
		}
	}
	ps := make([]string, n)
	for i, s := range statuses {
		ps[i] = strconv.Itoa(s)
	}
	sh.store("PIPESTATUS", &Var{Variable: expand.Variable{Set: true, Kind: expand.Indexed, List: ps}})
	sh.status = st
	if sig := signals[n-1]; sig != 0 && len(tasks) == n {
		// bash reports the pipeline when its last command was killed,
		// every command's status on a line
		lines := make([]string, n)
		for i, s := range statuses {
			desc := signalDescription(signals[i])
			switch {
			case signals[i] != 0 && desc != "":
			case s == 0:
				desc = "Done"
			default:
				desc = "Exit " + strconv.Itoa(s)
			}
			bar := ""
			if i > 0 {
				bar = "| "
			}
			lines[i] = fmt.Sprintf("%5d %-24s%s%s", pids[i], desc, bar, bashStmtText(stages[i]))
		}
		sh.signaled = signaled{sig: sig, pid: pids[n-1], lines: lines}
	}
}

// simpleCommand reports a statement bash runs as a simple command (not
// a compound one: ( ), { }, [[ ]], (( )), loops).
func simpleCommand(st *syntax.Stmt) bool {
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
		return true
	}
	return false
}

// job is a background job.
type job struct {
	id     int
	pid    int
	task   *sched.Task
	cmd    string
	status int
	done   bool
	signal int    // the signal that ended it, if one did
	text   string // its command as bash shows it in a report
}

func (sh *Shell) background(st *syntax.Stmt) {
	child := sh.fork()
	if child == nil {
		return
	}
	if child.fds[0] == nil || child.fds[0].r == sh.stdin() {
		child.fds[0] = &fdesc{r: strings.NewReader("")}
	}
	if simpleCommand(st) {
		child.subshell = sh.subshell // as in a pipeline
	}
	child.pgid = child.pid
	if p, ok := sh.rt.Sched.Proc(child.pid); ok {
		p.PGID = child.pid
		p.Args = []string{"bash"}
	}
	fg := *st
	fg.Background = false
	child.jobStmt = &fg
	j := &job{id: len(sh.jobs) + 1, pid: child.pid, cmd: printCmd(&fg), text: bashStmtText(&fg)}
	for _, o := range sh.jobs {
		if o.id >= j.id {
			j.id = o.id + 1
		}
	}
	j.task = sh.rt.Sched.Spawn(func(t *sched.Task) {
		child.task = t
		t.Data = child
		child.guard(func() { child.stmt(&fg) })
		s := child.status
		if child.exiting {
			s = child.exitCode
		}
		child.runExitTrap()
		j.signal = child.signaled.sig
		if k := t.Killed(); k != 0 {
			s = 128 + k
			j.signal = k
		}
		j.status, j.done = s, true
		if p, ok := sh.rt.Sched.Proc(child.pid); ok {
			sh.rt.Sched.Exit(p, s)
		}
		sh.rt.Meter.Release(child.varMem + child.procMem)
	})
	if p, ok := sh.rt.Sched.Proc(child.pid); ok {
		p.Task = j.task
	}
	sh.jobs = append(sh.jobs, j)
	sh.lastBg = child.pid
	sh.status = 0
}

func printCmd(st *syntax.Stmt) string {
	var b bytes.Buffer
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, st)
	return strings.TrimSpace(b.String())
}

// Attach binds the shell to the task running it (one action's root).
func (sh *Shell) Attach(t *sched.Task) {
	sh.task = t
	t.Data = sh
	if p, ok := sh.rt.Sched.Proc(sh.pid); ok {
		p.Task = t
	}
}

// ClearExit forgets a stop caused by cancellation so the session goes on.
func (sh *Shell) ClearExit() {
	sh.exiting, sh.returning, sh.brk, sh.cont = false, false, 0, 0
	sh.status = 137
}

// Complete reports whether src parses as complete input (no open heredoc,
// quote or compound command), for line-by-line consoles.
func Complete(src string) bool {
	if command.CheckSyntaxNest(src) != nil {
		return true // the run will report it
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	complete := true
	err := p.Interactive(strings.NewReader(src), func([]*syntax.Stmt) bool {
		complete = !p.Incomplete()
		return true
	})
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) && pe.Incomplete {
			return false
		}
		return true
	}
	return complete
}

func (sh *Shell) traceLine(s string) {
	io.WriteString(sh.stderr(), sh.ps4()+s+"\n")
}

// ps4 is set -x's prefix: PS4, its first character repeated once more per
// level of command or process substitution, as bash does.
func (sh *Shell) ps4() string {
	ps4, _ := sh.getVar("PS4")
	if sh.traceDepth > 0 && ps4 != "" {
		ps4 = strings.Repeat(ps4[:1], sh.traceDepth) + ps4
	}
	return ps4
}

func traceQuoteAll(items []string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = traceQuote(s)
	}
	return out
}

// traceArithCmd shows ((...)) under set -x as bash does: its text between
// the brackets (kept blanks and all) inside "(( " and " ))".
func (sh *Shell) traceArithCmd(c *syntax.ArithmCmd) {
	if c.X == nil || isDeferredWord(c.X) {
		return
	}
	sh.traceLine("(( " + arithCmdText(c, sh.traceWord) + " ))")
}

// printNode renders a node as source text on one line (set -x shows
// some constructs unexpanded, as written).
func printNode(n syntax.Node) string {
	var b bytes.Buffer
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n)
	return strings.TrimSpace(b.String())
}

// guard runs f, turning an executor panic into a diagnostic and status 2
// instead of crashing the host process.
func (sh *Shell) guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); ok && errors.Is(err, command.ErrStopped) {
				sh.fatal(err)
				return
			}
			fmt.Fprintf(sh.stderr(), "shellsim: internal error: %v\n", r)
			sh.rt.Tel.unsupported(fmt.Sprintf("internal-error:%v", r))
			sh.exit(2)
		}
	}()
	f()
}

// RunSourceGuarded is RunSource with panics contained.
func (sh *Shell) RunSourceGuarded(src, name string) (st int) {
	sh.guard(func() { st = sh.RunSource(src, name) })
	if sh.exiting {
		return sh.exitCode
	}
	return st
}
