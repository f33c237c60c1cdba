package shell

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
)

// redirect applies redirections in order; cleanup closes opened files.
// errHdocUnbound: set -u failed in a here-document (status already set).
var errHdocUnbound = errors.New("unbound variable in a here-document")

// redirStatus is the status of a command whose redirection failed.
func (sh *Shell) redirStatus(err error) int {
	if errors.Is(err, errHdocUnbound) {
		return sh.status
	}
	return 1
}

func (sh *Shell) redirect(rs []*syntax.Redirect) (cleanup func(), err error) {
	var opened []command.File
	cleanup = func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for _, r := range rs {
		if err := sh.charge(10); err != nil {
			return cleanup, err
		}
		fd := -1
		if r.N != nil {
			if strings.HasPrefix(r.N.Value, "{") {
				sh.unsupported("{var}>", "named file descriptors are not supported")
				return cleanup, errors.New("unsupported")
			}
			fd, _ = strconv.Atoi(r.N.Value)
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			s, err := "", error(nil)
			if body, ok := quotedHdoc(r); ok {
				s = body // a quoted delimiter: the body is taken as is
			} else {
				s, err = sh.document(r.Hdoc)
			}
			var ue expand.UnsetParameterError
			if errors.As(err, &ue) {
				// set -u in a here-document fails the command only (with
				// bash -c's 127)
				sh.errf("%s", ue.Error())
				sh.status = 1
				if sh.cmdString && !sh.subshell {
					sh.status = 127
				}
				return cleanup, errHdocUnbound
			}
			if err != nil {
				sh.exprError(err)
				return cleanup, err
			}
			if r.Op == syntax.DashHdoc {
				s = stripTabs(s)
			}
			sh.setFD(def(fd, 0), &fdesc{r: strings.NewReader(s)})
			continue
		case syntax.WordHdoc:
			s, err := sh.literal(r.Word)
			if err != nil {
				sh.exprError(err)
				return cleanup, err
			}
			sh.setFD(def(fd, 0), &fdesc{r: strings.NewReader(s + "\n")})
			continue
		}
		// the target is split and globbed; it must give one word
		targets, err := sh.fields(r.Word)
		if err != nil {
			sh.exprError(err)
			return cleanup, err
		}
		if len(targets) != 1 {
			var b strings.Builder
			syntax.NewPrinter().Print(&b, r.Word)
			sh.errf("%s: ambiguous redirect", b.String())
			sh.status = 1
			return cleanup, errors.New("ambiguous redirect")
		}
		target := targets[0]
		switch r.Op {
		case syntax.DplIn, syntax.DplOut:
			dst := def(fd, 0)
			if r.Op == syntax.DplOut {
				dst = def(fd, 1)
			}
			if target == "-" {
				sh.setFD(dst, nil)
				continue
			}
			if strings.HasSuffix(target, "-") {
				sh.unsupported("n>&m-", "moving descriptors is not supported")
				return cleanup, errors.New("unsupported")
			}
			src, err := strconv.Atoi(target)
			if err != nil {
				if r.Op == syntax.DplOut && fd < 0 {
					// >&file is &>file
					f, err := sh.openRedir(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
					if err != nil {
						return cleanup, err
					}
					opened = append(opened, f...)
					continue
				}
				sh.errf("%s: ambiguous redirect", target)
				return cleanup, errors.New("ambiguous")
			}
			if src < 0 || src > 9 || sh.fds[src] == nil {
				sh.errf("%d: Bad file descriptor", src)
				return cleanup, errors.New("bad fd")
			}
			d := *sh.fds[src]
			sh.setFD(dst, &d)
			continue
		}
		var flag, dst int
		both := false
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob:
			flag, dst = os.O_WRONLY|os.O_CREATE|os.O_TRUNC, def(fd, 1)
		case syntax.AppOut:
			flag, dst = os.O_WRONLY|os.O_CREATE|os.O_APPEND, def(fd, 1)
		case syntax.RdrIn:
			flag, dst = os.O_RDONLY, def(fd, 0)
		case syntax.RdrInOut:
			flag, dst = os.O_RDWR|os.O_CREATE, def(fd, 0)
		case syntax.RdrAll:
			flag, dst, both = os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 1, true
		case syntax.AppAll:
			flag, dst, both = os.O_WRONLY|os.O_CREATE|os.O_APPEND, 1, true
		default:
			sh.unsupported(r.Op.String(), "redirection is not supported")
			return cleanup, errors.New("unsupported")
		}
		if r.Op == syntax.RdrOut && sh.opts.noclobber {
			if fi, err := sh.rt.FS.Stat(command.Join(sh.dir, target)); err == nil && fi.Mode.IsRegular() {
				sh.errf("%s: cannot overwrite existing file", target)
				return cleanup, errors.New("clobber")
			}
		}
		if dst > 9 || dst < 0 {
			sh.errf("%d: Bad file descriptor", dst)
			return cleanup, errors.New("bad fd")
		}
		desc, f, err := sh.openDesc(target, flag)
		if err != nil {
			return cleanup, err
		}
		if f != nil {
			opened = append(opened, f)
		}
		sh.setFD(dst, desc)
		if both {
			sh.setFD(2, desc)
		}
	}
	return cleanup, nil
}

func def(fd, d int) int {
	if fd < 0 {
		return d
	}
	return fd
}

func (sh *Shell) setFD(n int, d *fdesc) {
	if n >= 0 && n < len(sh.fds) {
		sh.fds[n] = d
	}
}

func (sh *Shell) openRedir(target string, flag int) ([]command.File, error) {
	desc, f, err := sh.openDesc(target, flag)
	if err != nil {
		return nil, err
	}
	sh.setFD(1, desc)
	sh.setFD(2, desc)
	if f != nil {
		return []command.File{f}, nil
	}
	return nil, nil
}

// openDesc opens target for a redirection, resolving /dev/std* to the
// process's own descriptors.
func (sh *Shell) openDesc(target string, flag int) (*fdesc, command.File, error) {
	if target == "" {
		sh.errf(": No such file or directory")
		return nil, nil, errors.New("empty")
	}
	p := command.Join(sh.dir, target)
	if ps := sh.procSubByPath(p); ps != nil {
		if ps.r != nil {
			return &fdesc{r: ps.r}, nil, nil
		}
		return &fdesc{w: ps.w}, nil, nil
	}
	if n := sh.rt.FS.StdDevice(p); n >= 0 {
		if sh.fds[n] == nil {
			return nil, nil, nil
		}
		d := *sh.fds[n]
		return &d, nil, nil
	}
	if strings.HasPrefix(p, "/proc/self/fd/") || strings.HasPrefix(p, "/dev/fd/") {
		n, err := strconv.Atoi(p[strings.LastIndexByte(p, '/')+1:])
		if err == nil && n >= 0 && n < 10 && sh.fds[n] != nil {
			d := *sh.fds[n]
			return &d, nil, nil
		}
	}
	if p == "/dev/tty" {
		// the simulated processes have no controlling terminal
		sh.errf("%s: No such device or address", target)
		return nil, nil, errors.New("no tty")
	}
	f, err := sh.rt.FS.OpenFile(p, flag, 0o666&^fsMode(sh.umask))
	if err != nil {
		sh.errf("%s: %s", target, command.Message(err))
		return nil, nil, err
	}
	d := &fdesc{}
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		d.w = &fileWriter{f: f, sh: sh}
	}
	if flag&os.O_WRONLY == 0 {
		d.r = f
	}
	return d, f, nil
}

// fileWriter charges CPU for bytes written to a file.
type fileWriter struct {
	f  command.File
	sh *Shell
}

func (w *fileWriter) Write(p []byte) (int, error) {
	if err := w.sh.rt.charge(int64(len(p)) / 16); err != nil {
		return 0, err
	}
	return w.f.Write(p)
}

var _ io.Writer = (*fileWriter)(nil)

// stripTabs removes leading tabs from every line (<<-).
func stripTabs(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "")
}

// quotedHdoc returns the raw body of a here-document whose delimiter is
// quoted ('E', "E", \E), which bash does not expand at all (backslashes
// included).
func quotedHdoc(r *syntax.Redirect) (string, bool) {
	if r.Word == nil || r.Hdoc == nil {
		return "", false
	}
	quoted := false
	for _, p := range r.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				quoted = true
			}
		}
	}
	if !quoted {
		return "", false
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		b.WriteString(lit.Value)
	}
	return b.String(), true
}
