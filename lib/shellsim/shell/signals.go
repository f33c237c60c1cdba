package shell

import (
	"fmt"
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// signaled is a foreground child process that a signal ended: a
// non-interactive bash reports it on stderr when the command it ran
// completes (after the command's own redirections are undone).
type signaled struct {
	sig, pid int
	lines    []string // a pipeline's report: every command's status
}

// reportSignaled reports the child that ended st's command as bash does:
// SIGINT and SIGPIPE silently, SIGTERM as "Terminated", others with the
// line, the process id, the signal's description and the command. A
// command substitution's shell reports none, nor does the shell standing
// for a pipeline's or background job's process (its job reports it).
func (sh *Shell) reportSignaled(st *syntax.Stmt) {
	s := sh.signaled
	sh.signaled = signaled{}
	if sh.inComsub {
		return
	}
	switch s.sig {
	case 2, 13:
		return
	case 15:
		io.WriteString(sh.stderr(), "Terminated\n")
		return
	}
	prefix := fmt.Sprintf("%s: line %d: ", sh.errName(), sh.lineno)
	if s.lines != nil {
		io.WriteString(sh.stderr(), prefix+strings.Join(s.lines, "\n     ")+"\n")
		return
	}
	desc := signalDescription(s.sig)
	if desc == "" {
		return
	}
	fmt.Fprintf(sh.stderr(), "%s%5d %-24s%s\n", prefix, s.pid, desc, bashStmtText(st))
}

// reportJob reports a background job that a signal other than SIGINT,
// SIGPIPE or SIGTERM ended, when wait collects it.
func (sh *Shell) reportJob(j *job) {
	switch j.signal {
	case 0, 2, 13, 15:
		return
	}
	if desc := signalDescription(j.signal); desc != "" && !sh.inComsub {
		fmt.Fprintf(sh.stderr(), "%s: line %d: %5d %-24s%s\n", sh.errName(), sh.lineno, j.pid, desc, j.text)
	}
}

// bashStmtText is a statement on one line as bash prints a job's command.
func bashStmtText(st *syntax.Stmt) string {
	var p bashPrinter
	p.stmt(st)
	if t := p.b.String(); !strings.Contains(t, "\n") {
		return t
	}
	return strings.Join(strings.Fields(p.b.String()), " ")
}
