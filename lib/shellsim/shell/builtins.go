package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/sched"
)

type builtinFunc func(sh *Shell, args []string) int

var builtins map[string]builtinFunc

func init() {
	builtins = map[string]builtinFunc{
		":": func(*Shell, []string) int { return 0 }, "true": func(*Shell, []string) int { return 0 },
		"false": func(*Shell, []string) int { return 1 },
		"echo":  biEcho, "printf": biPrintf, "cd": biCd, "pwd": biPwd, "exit": biExit, "return": biReturn,
		"break": biBreak, "continue": biContinue, "shift": biShift, "set": biSet, "shopt": biShopt,
		"unset": biUnset, "export": biDeclLike, "readonly": biDeclLike, "declare": biDeclLike,
		"typeset": biDeclLike, "local": biDeclLike, "eval": biEval, "source": biSource, ".": biSource,
		"exec": biExec, "test": biTest, "[": biTest, "read": biRead, "mapfile": biMapfile,
		"readarray": biMapfile, "getopts": biGetopts, "trap": biTrap, "kill": biKill, "wait": biWait,
		"jobs": biJobs, "fg": biFg, "bg": biBg, "disown": biDisown, "let": biLet, "type": biType,
		"command": biCommand, "which": biWhich, "hash": biHash, "alias": biAlias, "unalias": biUnalias,
		"umask": biUmask, "pushd": biPushd, "popd": biPopd, "dirs": biDirs, "builtin": biBuiltin,
		"ulimit": biUlimit, "times": biTimes, "caller": biCaller, "enable": biEnable,
		"complete": biUnsupported, "compgen": biUnsupported, "bind": biUnsupported, "history": biUnsupported,
		"fc": biUnsupported, "suspend": biUnsupported, "logout": biExit, "help": biHelp,
	}
}

// IsBuiltin reports whether name is a shell builtin.
func IsBuiltin(name string) bool { _, ok := builtins[name]; return ok }

func (sh *Shell) bierr(name, format string, a ...any) {
	sh.errf("%s: %s", name, fmt.Sprintf(format, a...))
}

func biUnsupported(sh *Shell, args []string) int {
	sh.rt.Tel.unsupported("builtin:" + args[0])
	sh.bierr(args[0], "not implemented in shellsim")
	return 2
}

// write writes to stdout, stopping the process on a broken pipe.
func (sh *Shell) write(s string) int {
	if _, err := io.WriteString(sh.stdout(), s); err != nil {
		if errors.Is(err, command.ErrStopped) {
			sh.fatal(err)
			return 1
		}
		sh.errf("%s: write error: %s", sh.curBuiltin, command.Message(err))
		return 1
	}
	return 0
}

func biEcho(sh *Shell, args []string) int {
	newline, escapes := true, sh.opts.xpgEcho
	i := 1
opts:
	for ; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for _, c := range a[1:] {
			if c != 'n' && c != 'e' && c != 'E' {
				break opts
			}
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
	}
	var b strings.Builder
	for j, a := range args[i:] {
		if j > 0 {
			b.WriteByte(' ')
		}
		if escapes {
			s, stop := expandEscapes(a, true, sh.utf8())
			b.WriteString(s)
			if stop {
				return sh.write(b.String())
			}
		} else {
			b.WriteString(a)
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	if sh.charge(int64(b.Len())) != nil {
		return 1
	}
	return sh.write(b.String())
}

// expandEscapes interprets backslash escapes as echo -e (echo=true) or
// printf %b do; stop reports \c.
func expandEscapes(s string, echo, utf bool) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'c':
			return b.String(), true
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '\\':
			b.WriteByte('\\')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// echo -e knows only \0NNN; printf %b also takes \NNN.
			j := i
			if s[i] == '0' {
				j++
			} else if echo {
				b.WriteByte('\\')
				b.WriteByte(s[i])
				continue
			}
			n, k := 0, 0
			for k < 3 && j < len(s) && s[j] >= '0' && s[j] <= '7' {
				n = n*8 + int(s[j]-'0')
				j++
				k++
			}
			b.WriteByte(byte(n))
			i = j - 1
		case 'x':
			j, n := i+1, 0
			for j < len(s) && j < i+3 && isHex(s[j]) {
				n = n*16 + hexVal(s[j])
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			b.WriteByte(byte(n))
			i = j - 1
		case 'u', 'U':
			l := 4
			if s[i] == 'U' {
				l = 8
			}
			j, n := i+1, 0
			for j < len(s) && j < i+1+l && isHex(s[j]) {
				n = n*16 + hexVal(s[j])
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(s[i])
				continue
			}
			b.WriteString(expand.UnicodeEscape(s[i], rune(n), utf))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String(), false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

func biCd(sh *Shell, args []string) int {
	physical := false
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-"; i++ {
		if args[i] == "--" {
			i++
			break
		}
		for _, c := range args[i][1:] {
			switch c {
			case 'P':
				physical = true
			case 'L':
				physical = false
			case 'e', '@':
			default:
				sh.bierr(args[0], "%s: invalid option", args[i])
				fmt.Fprintln(sh.stderr(), "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]")
				return 2
			}
		}
	}
	rest := args[i:]
	if len(rest) > 1 {
		sh.bierr(args[0], "too many arguments")
		return 1
	}
	var target string
	printDir := false
	if len(rest) == 0 {
		h, ok := sh.getVar("HOME")
		if !ok {
			sh.bierr(args[0], "HOME not set")
			return 1
		}
		target = h
	} else {
		target = rest[0]
		if target == "-" {
			o, ok := sh.getVar("OLDPWD")
			if !ok || o == "" {
				sh.bierr(args[0], "OLDPWD not set")
				return 1
			}
			target, printDir = o, true
		}
	}
	if target == "" {
		return 0
	}
	p := command.Join(sh.dir, target)
	fi, err := sh.rt.FS.Stat(p)
	if err != nil {
		sh.bierr(args[0], "%s: %s", target, command.Message(err))
		return 1
	}
	if !fi.IsDir() {
		sh.bierr(args[0], "%s: Not a directory", target)
		return 1
	}
	if physical {
		if rp, err := sh.rt.FS.Realpath(p); err == nil {
			p = rp
		}
	}
	old := sh.dir
	sh.dir = p
	if pr, ok := sh.rt.Sched.Proc(sh.pid); ok {
		pr.Dir = p
	}
	sh.SetVar("OLDPWD", old)
	if v := sh.lookup("OLDPWD"); v != nil {
		v.Exported = true
	}
	sh.SetVar("PWD", p)
	if printDir {
		return sh.write(p + "\n")
	}
	return 0
}

func biPwd(sh *Shell, args []string) int {
	d := sh.dir
	for _, a := range args[1:] {
		switch a {
		case "-P":
			if rp, err := sh.rt.FS.Realpath(d); err == nil {
				d = rp
			}
		case "-L":
		default:
			sh.bierr("pwd", "%s: invalid option", a)
			return 2
		}
	}
	return sh.write(d + "\n")
}

func parseStatus(sh *Shell, name string, args []string) (int, bool) {
	if len(args) < 2 {
		return sh.status, true
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		sh.bierr(name, "%s: numeric argument required", args[1])
		return 2, false
	}
	return n & 255, true
}

func biExit(sh *Shell, args []string) int {
	n, _ := parseStatus(sh, "exit", args)
	if len(args) > 2 {
		// bash still exits, with status 1
		sh.bierr("exit", "too many arguments")
		sh.exit(1)
		return 1
	}
	sh.exit(n)
	return n
}

func biReturn(sh *Shell, args []string) int {
	if len(sh.funcNames) == 0 && sh.sourceDepth == 0 {
		sh.bierr("return", "can only `return' from a function or sourced script")
		return 2
	}
	n, ok := parseStatus(sh, "return", args)
	if !ok {
		n = 2
	}
	sh.preReturn = sh.status // $? in a RETURN trap
	if ok && len(args) > 2 {
		sh.bierr("return", "too many arguments")
		sh.tooManyArgs()
		return 1
	}
	sh.returning = true
	sh.status = n
	return n
}

// tooManyArgs ends a builtin given too many arguments as bash's
// get_numeric_arg does: the command line is abandoned, and bash -c ends.
func (sh *Shell) tooManyArgs() {
	if sh.cmdString && !sh.subshell {
		sh.exit(1)
		return
	}
	sh.discard()
}

func loopArg(sh *Shell, args []string) (int, bool) {
	if sh.loopDepth == 0 {
		sh.bierr(args[0], "only meaningful in a `for', `while', or `until' loop")
		return 0, false
	}
	n := 1
	if len(args) > 1 {
		v, err := strconv.Atoi(strings.TrimSpace(args[1]))
		if err != nil {
			// bash gives up with status 128
			sh.bierr(args[0], "%s: numeric argument required", args[1])
			sh.exit(128)
			return 128, false
		}
		if v < 1 {
			// bash leaves every loop
			sh.bierr(args[0], "%s: loop count out of range", args[1])
			sh.brk = sh.loopDepth
			return 1, false
		}
		n = v
	}
	return min(n, sh.loopDepth), true
}

func biBreak(sh *Shell, args []string) int {
	n, ok := loopArg(sh, args)
	if !ok {
		return n
	}
	sh.brk = n
	return 0
}

func biContinue(sh *Shell, args []string) int {
	n, ok := loopArg(sh, args)
	if !ok {
		return n
	}
	sh.cont = n
	return 0
}

func biShift(sh *Shell, args []string) int {
	n := 1
	if len(args) > 1 {
		v, err := strconv.Atoi(args[1])
		if err != nil {
			sh.bierr("shift", "%s: numeric argument required", args[1])
			return 1
		}
		if v < 0 {
			sh.bierr("shift", "%s: shift count out of range", args[1])
			return 1
		}
		if len(args) > 2 {
			sh.bierr("shift", "too many arguments")
			sh.tooManyArgs()
			return 1
		}
		n = v
	}
	if n > len(sh.params) {
		if sh.opts.shiftVerbose {
			sh.bierr("shift", "%d: shift count out of range", n)
		}
		return 1
	}
	sh.params = sh.params[n:]
	return 0
}

// allOptionNames is bash's set -o list; fixedOptions are the states of the
// ones ShellSim does not model (a non-interactive bash's defaults).
var allOptionNames = []string{"allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace", "hashall",
	"histexpand", "history", "ignoreeof", "interactive-comments", "keyword", "monitor", "noclobber", "noexec",
	"noglob", "nolog", "notify", "nounset", "onecmd", "physical", "pipefail", "posix", "privileged", "verbose",
	"vi", "xtrace"}

var fixedOptions = map[string]bool{"braceexpand": true, "hashall": true, "interactive-comments": true}

func (sh *Shell) optPtr(name string) *bool {
	switch name {
	case "errexit":
		return &sh.opts.errexit
	case "nounset":
		return &sh.opts.nounset
	case "xtrace":
		return &sh.opts.xtrace
	case "pipefail":
		return &sh.opts.pipefail
	case "noglob":
		return &sh.opts.noglob
	case "noclobber":
		return &sh.opts.noclobber
	case "allexport":
		return &sh.opts.allexport
	case "verbose":
		return &sh.opts.verbose
	case "errtrace":
		return &sh.opts.errtrace
	case "functrace":
		return &sh.opts.functrace
	}
	return nil
}

func (sh *Shell) setOption(name string, on bool) bool {
	switch name {
	case "posix", "interactive-comments", "braceexpand", "hashall", "monitor", "notify", "emacs", "vi", "histexpand", "history", "ignoreeof", "physical", "privileged", "keyword", "onecmd", "nolog":
		return true
	}
	p := sh.optPtr(name)
	if p == nil {
		return false
	}
	*p = on
	return true
}

var flagOpts = map[rune]string{'e': "errexit", 'u': "nounset", 'x': "xtrace", 'f': "noglob", 'C': "noclobber", 'a': "allexport", 'v': "verbose"}

func (sh *Shell) setFlag(f rune, on bool) bool {
	if f == 'E' {
		return sh.setOption("errtrace", on)
	}
	switch f {
	case 'h', 'B', 'm', 'H', 'P', 'b', 'k', 'n', 'p', 't':
		return true
	case 'T':
		return sh.setOption("functrace", on)
	}
	name, ok := flagOpts[f]
	if !ok {
		return false
	}
	return sh.setOption(name, on)
}

func (sh *Shell) optFlags() string {
	// in bash's order; h and B are always on
	var b strings.Builder
	for _, f := range "aefhuvxBCET" {
		name := flagOpts[f]
		switch f {
		case 'E':
			name = "errtrace"
		case 'T':
			name = "functrace"
		}
		if p := sh.optPtr(name); f == 'h' || f == 'B' || p != nil && *p {
			b.WriteRune(f)
		}
	}
	return b.String() + sh.modeFlag
}

func biSet(sh *Shell, args []string) int {
	if len(args) == 1 {
		var b strings.Builder
		for _, n := range sh.allNames() {
			v := sh.lookup(n)
			if !v.Set {
				continue
			}
			b.WriteString(n + "=" + declValue(v, sh.utf8()) + "\n")
		}
		return sh.write(b.String())
	}
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			sh.params = append([]string(nil), args[i+1:]...)
			return 0
		}
		if a == "-" {
			sh.opts.xtrace, sh.opts.verbose = false, false
			i++
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		on := a[0] == '-'
		for _, f := range a[1:] {
			if f == 'o' {
				if i+1 >= len(args) {
					var b strings.Builder
					for _, n := range allOptionNames {
						st := fixedOptions[n]
						if p := sh.optPtr(n); p != nil {
							st = *p
						}
						if on {
							fmt.Fprintf(&b, "%-15s\t%s\n", n, map[bool]string{true: "on", false: "off"}[st])
						} else {
							fmt.Fprintf(&b, "set %co %s\n", map[bool]byte{true: '-', false: '+'}[st], n)
						}
					}
					return sh.write(b.String())
				}
				i++
				if !sh.setOption(args[i], on) {
					sh.bierr("set", "%s: invalid option name", args[i])
					return 2
				}
				continue
			}
			if !sh.setFlag(f, on) {
				sh.bierr("set", "%c%c: invalid option", a[0], f)
				fmt.Fprintln(sh.stderr(), "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]")
				return 2
			}
		}
	}
	if i < len(args) {
		sh.params = append([]string(nil), args[i:]...)
	}
	return 0
}

func biUnset(sh *Shell, args []string) int {
	mode := 'v'
	st := 0
	for _, a := range args[1:] {
		switch a {
		case "-v":
			mode = 'v'
			continue
		case "-f":
			mode = 'f'
			continue
		case "-n":
			continue
		}
		if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "fvn") != "" {
			sh.bierr("unset", "-%c: invalid option", a[1+strings.IndexFunc(a[1:], func(r rune) bool { return !strings.ContainsRune("fvn", r) })])
			fmt.Fprintln(sh.stderr(), "unset: usage: unset [-f] [-v] [-n] [name ...]")
			return 2
		}
		if mode == 'f' {
			if sh.roFuncs[a] {
				sh.bierr("unset", "%s: cannot unset: readonly function", a)
				st = 1
				continue
			}
			delete(sh.funcs, a)
			continue
		}
		if i := strings.IndexByte(a, '['); i > 0 && strings.HasSuffix(a, "]") {
			name, key := a[:i], a[i+1:len(a)-1]
			v := sh.lookup(sh.resolveRef(name))
			if v == nil {
				continue
			}
			if v.ReadOnly {
				sh.bierr("unset", "%s: cannot unset: readonly variable", name)
				st = 1
				continue
			}
			nv := cloneVar(v)
			if nv.Kind == expand.Associative {
				delete(nv.Map, key)
			} else if key == "@" || key == "*" {
				sh.unsetVar(name)
				continue
			} else {
				n, err := sh.arithString(key)
				var ae expand.ArithError
				if errors.As(err, &ae) {
					// an arithmetic error in a subscript abandons the line
					// (bash -c exits), as in bash
					ae.Subscript = true
					sh.wordError(ae)
					return 1
				}
				if err != nil {
					sh.bierr("unset", "%s: bad array subscript", a)
					st = 1
					continue
				}
				if nv.Kind != expand.Indexed {
					// a scalar is element 0 of itself
					if n != 0 {
						sh.bierr("unset", "%s: not an array variable", name)
						st = 1
					} else {
						sh.unsetVar(name)
					}
					continue
				}
				if n < 0 {
					if n = maxIndex(nv) + 1 + n; n < 0 {
						sh.bierr("unset", "[%s]: bad array subscript", key)
						st = 1
						continue
					}
				}
				indexUnset(nv, n)
			}
			sh.store(name, nv)
			continue
		}
		if err := sh.unsetVar(a); err != nil {
			sh.bierr("unset", "%v", err)
			st = 1
			continue
		}
		if mode == 'v' && sh.lookup(a) == nil {
			if _, ok := sh.funcs[a]; ok && false {
				delete(sh.funcs, a)
			}
		}
	}
	return st
}

func biEval(sh *Shell, args []string) int {
	src := strings.Join(args[1:], " ")
	f, synErr, err := sh.parseOrPrefix(src, "eval")
	if err != nil {
		if sh.exiting {
			return sh.exitCode
		}
		sh.errf("%v", err)
		return 2
	}
	if !sh.enter() {
		return 1
	}
	sh.status = 0
	base := sh.lineBase
	if sh.curStmt != nil {
		sh.lineBase += int(sh.curStmt.End().Line()) - 1
	}
	u := sh.enterUnit(sh.lineSkew)
	if f != nil {
		sh.units(f.Stmts)
	}
	sh.leaveUnit(u)
	if synErr != nil && !sh.exiting {
		// the commands before a syntax error ran; eval fails with it
		sh.reportSyntaxError(src, *synErr, sh.errName()+": eval")
	}
	sh.lineBase = base
	sh.leave()
	return sh.status
}

func biSource(sh *Shell, args []string) int {
	if len(args) < 2 {
		sh.bierr(args[0], "filename argument required")
		fmt.Fprintf(sh.stderr(), "%s: usage: %s filename [arguments]\n", args[0], args[0])
		return 2
	}
	name := args[1]
	p := command.Join(sh.dir, name)
	if !strings.Contains(name, "/") {
		if _, err := sh.rt.FS.Stat(p); err != nil {
			pathVar, _ := sh.getVar("PATH")
			for _, d := range strings.Split(pathVar, ":") {
				q := command.Join(sh.dir, d+"/"+name)
				if fi, err := sh.rt.FS.Stat(q); err == nil && fi.Mode.IsRegular() {
					p = q
					break
				}
			}
		}
	}
	b, err := sh.readFile(p)
	if err != nil {
		sh.errf("%s: %s", name, command.Message(err))
		return 1
	}
	f, synErr, err := sh.parseOrPrefix(string(b), name)
	if err != nil {
		if sh.exiting {
			return sh.exitCode
		}
		io.WriteString(sh.stderr(), ParseErrorText(name, err))
		return 2
	}
	oldParams := sh.params
	if len(args) > 2 {
		sh.params = args[2:]
	}
	if !sh.enter() {
		sh.params = oldParams
		return 1
	}
	sh.sourceDepth++
	sh.status = 0
	// diagnostics name the sourced file and count its lines
	oldName, oldBase := sh.name, sh.lineBase
	sh.frames = append(sh.frames, frame{"source", name, sh.lineno})
	sh.name, sh.lineBase = name, 0
	u := sh.enterUnit(0)
	if f != nil {
		sh.units(f.Stmts)
	}
	sh.leaveUnit(u)
	if synErr != nil && !sh.exiting {
		sh.reportSyntaxError(string(b), *synErr, name)
	}
	callLine := sh.frames[len(sh.frames)-1].line
	sh.frames = sh.frames[:len(sh.frames)-1]
	sh.name, sh.lineBase = oldName, oldBase
	sh.sourceDepth--
	sh.leave()
	returned := sh.returning
	sh.returning = false
	// bash runs the RETURN trap when a sourced file ends, on the caller's line
	sh.lineno = callLine
	sh.runReturnTrap(returned)
	if len(args) > 2 {
		sh.params = oldParams
	}
	return sh.status
}

func biExec(sh *Shell, args []string) int {
	if len(args) == 1 {
		sh.persist = true
		return 0
	}
	rest := args[1:]
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	} else if len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		sh.rt.Tel.Partials = append(sh.rt.Tel.Partials, "exec "+rest[0])
		sh.bierr("exec", "%s: option not supported in shellsim", rest[0])
		return 2
	}
	if len(rest) == 0 {
		sh.persist = true
		return 0
	}
	st := sh.external(rest, nil, sh.fds)
	if !sh.exiting {
		sh.exit(st)
	}
	return st
}

func biLet(sh *Shell, args []string) int {
	if len(args) < 2 {
		sh.bierr("let", "expression expected")
		return 1
	}
	n := 0
	for _, a := range args[1:] {
		v, err := sh.arithString(a)
		if err != nil {
			sh.bierr("let", "%v", err)
			return 1
		}
		n = v
	}
	return b2i(n == 0)
}

func biTrap(sh *Shell, args []string) int {
	a := args[1:]
	if len(a) == 0 || a[0] == "-p" {
		names := make([]string, 0, len(sh.traps))
		for k := range sh.traps {
			names = append(names, k)
		}
		sort.Slice(names, func(i, j int) bool { return signalNum(names[i]) < signalNum(names[j]) })
		var b strings.Builder
		for _, k := range names {
			if len(a) > 1 && !contains(a[1:], k) {
				continue
			}
			fmt.Fprintf(&b, "trap -- %s %s\n", shellQuote(sh.traps[k]), trapDisplay(k))
		}
		return sh.write(b.String())
	}
	if a[0] == "-l" {
		var b strings.Builder
		for i, n := range signalList {
			fmt.Fprintf(&b, "%2d) SIG%s", n.num, n.name)
			if i%5 == 4 || i == len(signalList)-1 {
				b.WriteByte('\n')
			} else {
				b.WriteByte('\t')
			}
		}
		return sh.write(b.String())
	}
	if a[0] == "--" {
		a = a[1:]
	}
	action := a[0]
	sigs := a[1:]
	if len(sigs) == 0 {
		// trap SIG: reset
		sigs, action = a, "-"
	}
	if sh.traps == nil {
		sh.traps = map[string]string{}
	}
	st := 0
	for _, s := range sigs {
		name, ok := normSignal(s)
		if !ok {
			sh.bierr("trap", "%s: invalid signal specification", s)
			st = 1
			continue
		}
		switch name {
		case "KILL", "STOP":
			if action != "-" {
				sh.bierr("trap", "%s: cannot trap", s)
			}
			continue
		case "DEBUG", "CONT":
			sh.rt.Tel.unsupported("trap:" + name)
			sh.bierr("trap", "%s: trap not supported in shellsim", name)
			st = 2
			continue
		}
		if action == "-" {
			delete(sh.traps, name)
		} else {
			sh.traps[name] = action
		}
	}
	return st
}

func trapDisplay(k string) string {
	if k == "EXIT" || k == "ERR" || k == "RETURN" || k == "DEBUG" {
		return k
	}
	return "SIG" + k
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s || "SIG"+s == x {
			return true
		}
	}
	return false
}

type sigdef struct {
	num  int
	name string
}

var signalList = []sigdef{{1, "HUP"}, {2, "INT"}, {3, "QUIT"}, {4, "ILL"}, {5, "TRAP"}, {6, "ABRT"}, {7, "BUS"},
	{8, "FPE"}, {9, "KILL"}, {10, "USR1"}, {11, "SEGV"}, {12, "USR2"}, {13, "PIPE"}, {14, "ALRM"}, {15, "TERM"},
	{16, "STKFLT"}, {17, "CHLD"}, {18, "CONT"}, {19, "STOP"}, {20, "TSTP"}, {21, "TTIN"}, {22, "TTOU"}, {23, "URG"},
	{24, "XCPU"}, {25, "XFSZ"}, {26, "VTALRM"}, {27, "PROF"}, {28, "WINCH"}, {29, "IO"}, {30, "PWR"}, {31, "SYS"}}

func signalName(n int) string {
	if n == 0 {
		return "EXIT"
	}
	for _, s := range signalList {
		if s.num == n {
			return s.name
		}
	}
	return strconv.Itoa(n)
}

func signalNum(name string) int {
	switch name {
	case "EXIT":
		return 0
	case "DEBUG": // bash's order: the signals, then DEBUG, ERR and RETURN
		return 100
	case "ERR":
		return 101
	case "RETURN":
		return 102
	}
	for _, s := range signalList {
		if s.name == name {
			return s.num
		}
	}
	return -1
}

// normSignal maps "TERM", "SIGTERM", "term", "15" to "TERM".
func normSignal(s string) (string, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n == 0 {
			return "EXIT", true
		}
		for _, d := range signalList {
			if d.num == n {
				return d.name, true
			}
		}
		return "", false
	}
	u := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	switch u {
	case "EXIT", "ERR", "DEBUG", "RETURN":
		return u, true
	}
	if signalNum(u) > 0 {
		return u, true
	}
	return "", false
}

// terminating reports whether sig kills a process by default.
func terminating(sig int) bool {
	switch sig {
	case 17, 18, 19, 20, 21, 22, 23, 28:
		return false
	}
	return true
}

// deliver sends sig to the process pid.
func (sh *Shell) deliver(pid, sig int) bool {
	p, ok := sh.rt.Sched.Proc(pid)
	if !ok || p.Exited {
		return false
	}
	if sig == 0 {
		return true
	}
	t := p.Task
	if t == nil || t.Done() {
		return p.PID == sh.pid || ok
	}
	if target, ok := t.Data.(*Shell); ok && target != nil {
		if action, trapped := target.traps[signalName(sig)]; trapped && sig != 9 && sig != 19 {
			if action != "" {
				t.Signal(sig, false)
			}
			return true
		}
	}
	if sig == 19 || sig == 20 {
		sh.rt.Tel.unsupported("signal:STOP")
		return true
	}
	if !terminating(sig) {
		return true
	}
	t.Signal(sig, true)
	return true
}

// selfSignal delivers sig to this shell when it has no task of its own
// (a ( ) subshell): a trapped signal runs its handler after the current
// command, an untrapped terminating one ends the subshell as bash's would.
func (sh *Shell) selfSignal(sig int) {
	if action, trapped := sh.traps[signalName(sig)]; trapped && sig != 9 && sig != 19 {
		if action != "" && len(sh.selfPending) < 64 {
			sh.selfPending = append(sh.selfPending, sig)
		}
		return
	}
	if sig == 19 || sig == 20 {
		sh.rt.Tel.unsupported("signal:STOP")
		return
	}
	if !terminating(sig) {
		return
	}
	sh.killedBy = sig
	sh.exit(128 + sig)
}

func biKill(sh *Shell, args []string) int {
	a := args[1:]
	sig := 15
	if len(a) == 0 {
		fmt.Fprintln(sh.stderr(), "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]")
		return 2
	}
	if a[0] == "-l" || a[0] == "-L" {
		if len(a) > 1 {
			var b strings.Builder
			for _, x := range a[1:] {
				if n, err := strconv.Atoi(x); err == nil {
					if n > 128 {
						n -= 128
					}
					b.WriteString(signalName(n) + "\n")
				} else if name, ok := normSignal(x); ok {
					fmt.Fprintf(&b, "%d\n", signalNum(name))
				} else {
					sh.bierr("kill", "%s: invalid signal specification", x)
					return 1
				}
			}
			return sh.write(b.String())
		}
		return biTrap(sh, []string{"trap", "-l"})
	}
	if a[0] == "-s" || a[0] == "-n" {
		if len(a) < 2 {
			sh.bierr("kill", "%s: option requires an argument", a[0])
			return 2
		}
		name, ok := normSignal(a[1])
		if !ok {
			sh.bierr("kill", "%s: invalid signal specification", a[1])
			return 1
		}
		sig = signalNum(name)
		a = a[2:]
	} else if strings.HasPrefix(a[0], "-") && a[0] != "--" && len(a[0]) > 1 {
		name, ok := normSignal(a[0][1:])
		if !ok {
			sh.bierr("kill", "%s: invalid signal specification", a[0][1:])
			return 1
		}
		sig = signalNum(name)
		if name == "EXIT" {
			sig = 0
		}
		a = a[1:]
	}
	if len(a) > 0 && a[0] == "--" {
		a = a[1:]
	}
	st := 0
	for _, t := range a {
		if strings.HasPrefix(t, "%") {
			j := sh.findJob(t)
			if j == nil {
				sh.bierr("kill", "%s: no such job", t)
				st = 1
				continue
			}
			if !j.done {
				sh.deliverGroup(j.pid, sig)
			}
			continue
		}
		pid, err := strconv.Atoi(t)
		if err != nil {
			sh.bierr("kill", "%s: arguments must be process or job IDs", t)
			st = 1
			continue
		}
		if pid < 0 {
			if !sh.deliverGroup(-pid, sig) {
				sh.bierr("kill", "(%d) - No such process", pid)
				st = 1
			}
			continue
		}
		if p, ok := sh.rt.Sched.Proc(pid); ok && pid == sh.pid && sh.subshell && p.Task == nil && !p.Exited && sig != 0 {
			// a subshell that runs inside its parent's task signals itself
			sh.selfSignal(sig)
			continue
		}
		if !sh.deliver(pid, sig) {
			sh.bierr("kill", "(%d) - No such process", pid)
			st = 1
		}
	}
	sh.rt.Sched.Current().Yield()
	return st
}

func (sh *Shell) deliverGroup(pgid, sig int) bool {
	found := false
	for _, p := range sh.rt.Sched.Procs() {
		if p.PGID == pgid && !p.Exited {
			found = true
			sh.deliver(p.PID, sig)
		}
	}
	return found
}

func (sh *Shell) findJob(spec string) *job {
	s := strings.TrimPrefix(spec, "%")
	if len(sh.jobs) == 0 {
		return nil
	}
	switch s {
	case "", "%", "+":
		return sh.jobs[len(sh.jobs)-1]
	case "-":
		if len(sh.jobs) > 1 {
			return sh.jobs[len(sh.jobs)-2]
		}
		return sh.jobs[0]
	}
	if n, err := strconv.Atoi(s); err == nil {
		for _, j := range sh.jobs {
			if j.id == n {
				return j
			}
		}
		return nil
	}
	for _, j := range sh.jobs {
		if strings.HasPrefix(j.cmd, s) {
			return j
		}
	}
	return nil
}

func (sh *Shell) jobByPID(pid int) *job {
	for _, j := range sh.jobs {
		if j.pid == pid {
			return j
		}
	}
	return nil
}

func (sh *Shell) removeJob(j *job) {
	for i, x := range sh.jobs {
		if x == j {
			sh.jobs = append(sh.jobs[:i], sh.jobs[i+1:]...)
			if p, ok := sh.rt.Sched.Proc(j.pid); ok {
				sh.rt.Sched.Reap(p)
			}
			return
		}
	}
}

// waitJob waits for j; a trapped signal interrupts with 128+sig.
func (sh *Shell) waitJob(j *job) int {
	t := sh.rt.Sched.Current()
	t.Interruptible = true
	defer func() { t.Interruptible = false }()
	for !j.task.Done() {
		if err := t.Wait(j.task); err != nil {
			if errors.Is(err, sched.ErrInterrupted) {
				sigs := t.TakeSignals()
				t.Interruptible = false
				for _, s := range sigs {
					if tr, ok := sh.traps[signalName(s)]; ok && tr != "" {
						sh.runTrap(tr, true)
					}
				}
				if len(sigs) > 0 {
					return 128 + sigs[len(sigs)-1]
				}
				continue
			}
			sh.fatal(err)
			return sh.exitCode
		}
	}
	return j.status
}

func biWait(sh *Shell, args []string) int {
	a := args[1:]
	anyJob := false
	if len(a) > 0 && a[0] == "-n" {
		anyJob, a = true, a[1:]
	}
	if len(a) == 0 && anyJob {
		if len(sh.jobs) == 0 {
			return 127
		}
		t := sh.rt.Sched.Current()
		tasks := make([]*sched.Task, len(sh.jobs))
		for i, j := range sh.jobs {
			tasks[i] = j.task
		}
		t.Interruptible = true
		err := t.WaitAny(tasks)
		t.Interruptible = false
		if err != nil {
			if errors.Is(err, sched.ErrInterrupted) {
				sigs := t.TakeSignals()
				for _, s := range sigs {
					if tr, ok := sh.traps[signalName(s)]; ok && tr != "" {
						sh.runTrap(tr, true)
					}
				}
				if len(sigs) > 0 {
					return 128 + sigs[len(sigs)-1]
				}
			}
			sh.fatal(err)
			return sh.exitCode
		}
		for _, j := range sh.jobs {
			if j.task.Done() {
				sh.reportJob(j)
				sh.removeJob(j)
				return j.status
			}
		}
		return 0
	}
	if len(a) == 0 {
		for len(sh.jobs) > 0 {
			j := sh.jobs[0]
			st := sh.waitJob(j)
			if st > 128 && !j.task.Done() {
				return st
			}
			if sh.exiting {
				return sh.exitCode
			}
			sh.reportJob(j)
			sh.removeJob(j)
		}
		return 0
	}
	st := 0
	for _, x := range a {
		var j *job
		if strings.HasPrefix(x, "%") {
			j = sh.findJob(x)
			if j == nil {
				sh.bierr("wait", "%s: no such job", x)
				st = 127
				continue
			}
		} else {
			pid, err := strconv.Atoi(x)
			if err != nil {
				sh.bierr("wait", "`%s': not a pid or valid job spec", x)
				st = 2
				continue
			}
			j = sh.jobByPID(pid)
			if j == nil {
				sh.bierr("wait", "pid %d is not a child of this shell", pid)
				st = 127
				continue
			}
		}
		st = sh.waitJob(j)
		if j.task.Done() {
			sh.reportJob(j)
			sh.removeJob(j)
		}
	}
	return st
}

func jobState(j *job) string {
	if !j.task.Done() {
		return "Running"
	}
	switch {
	case j.status == 0:
		return "Done"
	case j.status > 128 && j.status-128 < 32:
		if n := signalDescription(j.status - 128); n != "" {
			return n
		}
	}
	return fmt.Sprintf("Exit %d", j.status)
}

// signalDescription is bash's (strsignal's) name of a signal that ended a job.
func signalDescription(sig int) string {
	if sig >= 34 && sig <= 64 {
		return "Real-time signal " + strconv.Itoa(sig-34)
	}
	return signalDescriptions[sig]
}

var signalDescriptions = map[int]string{1: "Hangup", 2: "Interrupt", 3: "Quit", 4: "Illegal instruction",
	5: "Trace/breakpoint trap", 6: "Aborted", 7: "Bus error", 8: "Floating point exception", 9: "Killed",
	10: "User defined signal 1", 11: "Segmentation fault", 12: "User defined signal 2", 13: "Broken pipe",
	14: "Alarm clock", 15: "Terminated", 16: "Stack fault", 24: "CPU time limit exceeded",
	25: "File size limit exceeded", 26: "Virtual timer expired", 27: "Profiling timer expired",
	29: "I/O possible", 30: "Power failure", 31: "Bad system call"}

func biJobs(sh *Shell, args []string) int {
	pidsOnly, long := false, false
	for _, a := range args[1:] {
		switch a {
		case "-p":
			pidsOnly = true
		case "-l":
			long = true
		case "-r", "-s", "-n":
		default:
			sh.bierr("jobs", "%s: invalid option", a)
			return 2
		}
	}
	var b strings.Builder
	var done []*job
	for i, j := range sh.jobs {
		if pidsOnly {
			fmt.Fprintf(&b, "%d\n", j.pid)
			continue
		}
		mark := ' '
		if i == len(sh.jobs)-1 {
			mark = '+'
		} else if i == len(sh.jobs)-2 {
			mark = '-'
		}
		st := jobState(j)
		cmd := j.cmd
		if st == "Running" {
			cmd += " &"
		}
		if long {
			fmt.Fprintf(&b, "[%d]%c %d %-24s%s\n", j.id, mark, j.pid, st, cmd)
		} else {
			fmt.Fprintf(&b, "[%d]%c  %-24s%s\n", j.id, mark, st, cmd)
		}
		if j.task.Done() {
			done = append(done, j)
		}
	}
	for _, j := range done {
		sh.removeJob(j)
	}
	return sh.write(b.String())
}

func biFg(sh *Shell, args []string) int {
	spec := "%+"
	if len(args) > 1 {
		spec = args[1]
	}
	j := sh.findJob(spec)
	if j == nil {
		if len(args) > 1 {
			sh.bierr("fg", "%s: no such job", args[1])
		} else {
			sh.bierr("fg", "current: no such job")
		}
		return 1
	}
	sh.write(j.cmd + "\n")
	st := sh.waitJob(j)
	sh.removeJob(j)
	return st
}

func biBg(sh *Shell, args []string) int {
	spec := "%+"
	if len(args) > 1 {
		spec = args[1]
	}
	j := sh.findJob(spec)
	if j == nil {
		sh.bierr("bg", "%s: no such job", strings.TrimPrefix(spec, "%+"))
		return 1
	}
	sh.bierr("bg", "job %d already in background", j.id)
	return 0
}

func biDisown(sh *Shell, args []string) int {
	if len(args) == 1 {
		if len(sh.jobs) > 0 {
			sh.jobs = sh.jobs[:len(sh.jobs)-1]
		}
		return 0
	}
	for _, a := range args[1:] {
		if a == "-a" {
			sh.jobs = nil
			continue
		}
		var j *job
		if strings.HasPrefix(a, "%") {
			j = sh.findJob(a)
		} else if pid, err := strconv.Atoi(a); err == nil {
			j = sh.jobByPID(pid)
		}
		if j == nil {
			sh.bierr("disown", "%s: no such job", a)
			return 1
		}
		for i, x := range sh.jobs {
			if x == j {
				sh.jobs = append(sh.jobs[:i], sh.jobs[i+1:]...)
				break
			}
		}
	}
	return 0
}

var keywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true,
	"esac": true, "for": true, "select": true, "while": true, "until": true, "do": true, "done": true, "in": true,
	"function": true, "time": true, "{": true, "}": true, "!": true, "[[": true, "]]": true, "coproc": true}

// describe answers type/command -v for one name.
func (sh *Shell) describe(name string, mode byte, noFunc bool) (string, bool) {
	if a, ok := sh.aliases[name]; ok && !noFunc {
		switch mode {
		case 't':
			return "alias", true
		case 'v':
			return "alias " + name + "=" + shellQuote(a), true
		case 'p', 'P':
			return "", true
		}
		return fmt.Sprintf("%s is aliased to `%s'", name, a), true
	}
	if keywords[name] && mode != 'P' {
		switch mode {
		case 't':
			return "keyword", true
		case 'v':
			return name, true
		case 'p':
			return "", true
		}
		return name + " is a shell keyword", true
	}
	if body, ok := sh.funcs[name]; ok && !noFunc && mode != 'P' {
		switch mode {
		case 't':
			return "function", true
		case 'v':
			return name, true
		case 'p':
			return "", true
		}
		return name + " is a function\n" + funcText(name, body), true
	}
	if _, ok := sh.builtin(name); ok && mode != 'P' {
		switch mode {
		case 't':
			return "builtin", true
		case 'v':
			return name, true
		case 'p':
			return "", true
		}
		return name + " is a shell builtin", true
	}
	r := sh.resolve(name)
	if r.kind == resCommand || r.kind == resScript || r.kind == resShell || r.kind == resBuiltin {
		p := r.path
		switch mode {
		case 't':
			return "file", true
		case 'v', 'p', 'P':
			return p, true
		}
		return name + " is " + p, true
	}
	return "", false
}

func biType(sh *Shell, args []string) int {
	mode := byte(0)
	all := false
	st := 0
	var b strings.Builder
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for _, c := range a[1:] {
				switch c {
				case 't', 'p', 'P':
					mode = byte(c)
				case 'a':
					all = true
				case 'f':
				default:
					sh.bierr("type", "-%c: invalid option", c)
					return 2
				}
			}
			continue
		}
		_ = all
		s, ok := sh.describe(a, mode, false)
		if !ok {
			if mode == 0 {
				sh.bierr("type", "%s: not found", a)
			}
			st = 1
			continue
		}
		if s != "" {
			b.WriteString(s + "\n")
		}
	}
	sh.write(b.String())
	return st
}

func biCommand(sh *Shell, args []string) int {
	a := args[1:]
	mode := byte(0)
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		for _, c := range a[0][1:] {
			switch c {
			case 'v':
				mode = 'v'
			case 'V':
				mode = 'V'
			case 'p':
			default:
				sh.bierr("command", "-%c: invalid option", c)
				return 2
			}
		}
		a = a[1:]
	}
	if len(a) == 0 {
		return 0
	}
	if mode != 0 {
		st := 0
		var b strings.Builder
		for _, n := range a {
			m := byte('v')
			if mode == 'V' {
				m = 0
			}
			s, ok := sh.describe(n, m, false)
			if !ok {
				if mode == 'V' {
					sh.bierr("command", "%s: not found", n)
				}
				st = 1
				continue
			}
			b.WriteString(s + "\n")
		}
		sh.write(b.String())
		return st
	}
	if b, ok := sh.builtin(a[0]); ok {
		sh.runBuiltin(a[0], b, a)
		return sh.status
	}
	return sh.external(a, nil, sh.fds)
}

func biBuiltin(sh *Shell, args []string) int {
	if len(args) < 2 {
		return 0
	}
	b, ok := sh.builtin(args[1])
	if !ok {
		sh.bierr("builtin", "%s: not a shell builtin", args[1])
		return 1
	}
	sh.runBuiltin(args[1], b, args[1:])
	return sh.status
}

func biWhich(sh *Shell, args []string) int {
	st := 0
	var b strings.Builder
	for _, a := range args[1:] {
		if a == "-a" || a == "-s" {
			continue
		}
		r := sh.resolve(a)
		if r.kind == resCommand || r.kind == resScript || r.kind == resShell {
			b.WriteString(r.path + "\n")
		} else if _, ok := builtins[a]; ok && standaloneBuiltins[a] {
			b.WriteString("/usr/bin/" + a + "\n")
		} else {
			st = 1
		}
	}
	sh.write(b.String())
	return st
}

func biHash(sh *Shell, args []string) int {
	if len(args) == 1 {
		return sh.write("hash: hash table empty\n")
	}
	st := 0
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if r := sh.resolve(a); r.kind == resNone {
			sh.bierr("hash", "%s: not found", a)
			st = 1
		}
	}
	return st
}

func biAlias(sh *Shell, args []string) int {
	if sh.aliases == nil {
		sh.aliases = map[string]string{}
	}
	a := args[1:]
	if len(a) > 0 && a[0] == "-p" {
		a = a[1:]
	}
	if len(a) == 0 {
		names := make([]string, 0, len(sh.aliases))
		for k := range sh.aliases {
			names = append(names, k)
		}
		sort.Strings(names)
		var b strings.Builder
		for _, k := range names {
			fmt.Fprintf(&b, "alias %s=%s\n", k, shellQuote(sh.aliases[k]))
		}
		return sh.write(b.String())
	}
	st := 0
	for _, x := range a {
		k, v, ok := strings.Cut(x, "=")
		if ok {
			sh.aliases[k] = v
			continue
		}
		if v, ok := sh.aliases[k]; ok {
			sh.write(fmt.Sprintf("alias %s=%s\n", k, shellQuote(v)))
		} else {
			sh.bierr("alias", "%s: not found", k)
			st = 1
		}
	}
	return st
}

func biUnalias(sh *Shell, args []string) int {
	st := 0
	for _, a := range args[1:] {
		if a == "-a" {
			sh.aliases = nil
			continue
		}
		if _, ok := sh.aliases[a]; !ok {
			sh.bierr("unalias", "%s: not found", a)
			st = 1
			continue
		}
		delete(sh.aliases, a)
	}
	return st
}

func biUmask(sh *Shell, args []string) int {
	a := args[1:]
	sym := false
	if len(a) > 0 && a[0] == "-S" {
		sym, a = true, a[1:]
	}
	if len(a) > 0 && a[0] == "-p" {
		a = a[1:]
	}
	if len(a) == 0 {
		if sym {
			perm := func(shift uint) string {
				m := (^sh.umask >> shift) & 7
				s := ""
				if m&4 != 0 {
					s += "r"
				}
				if m&2 != 0 {
					s += "w"
				}
				if m&1 != 0 {
					s += "x"
				}
				return s
			}
			return sh.write(fmt.Sprintf("u=%s,g=%s,o=%s\n", perm(6), perm(3), perm(0)))
		}
		return sh.write(fmt.Sprintf("%04o\n", sh.umask))
	}
	n, err := strconv.ParseInt(a[0], 8, 32)
	if err != nil {
		sh.rt.Tel.Partials = append(sh.rt.Tel.Partials, "umask symbolic")
		sh.bierr("umask", "%s: octal number out of range", a[0])
		return 1
	}
	sh.umask = int(n) & 0o777
	sh.rt.FS.SetUmask(fsMode(sh.umask))
	return 0
}

func biPushd(sh *Shell, args []string) int {
	if len(args) < 2 {
		if len(sh.dirs) == 0 {
			sh.bierr("pushd", "no other directory")
			return 1
		}
		top := sh.dirs[0]
		sh.dirs[0] = sh.dir
		if st := biCd(sh, []string{args[0], top}); st != 0 {
			return st
		}
		return biDirs(sh, []string{"dirs"})
	}
	old := sh.dir
	if st := biCd(sh, []string{args[0], args[1]}); st != 0 {
		return st
	}
	sh.dirs = append([]string{old}, sh.dirs...)
	return biDirs(sh, []string{"dirs"})
}

func biPopd(sh *Shell, args []string) int {
	if len(sh.dirs) == 0 {
		sh.bierr("popd", "directory stack empty")
		return 1
	}
	top := sh.dirs[0]
	sh.dirs = sh.dirs[1:]
	if st := biCd(sh, []string{args[0], top}); st != 0 {
		return st
	}
	return biDirs(sh, []string{"dirs"})
}

func biDirs(sh *Shell, args []string) int {
	home, _ := sh.getVar("HOME")
	short := func(d string) string {
		if home != "" && (d == home || strings.HasPrefix(d, home+"/")) {
			return "~" + d[len(home):]
		}
		return d
	}
	if len(args) > 1 && args[1] == "-c" {
		sh.dirs = nil
		return 0
	}
	parts := []string{short(sh.dir)}
	for _, d := range sh.dirs {
		parts = append(parts, short(d))
	}
	return sh.write(strings.Join(parts, " ") + "\n")
}

func biUlimit(sh *Shell, args []string) int {
	if len(args) > 1 && len(args) <= 2 && strings.HasPrefix(args[1], "-") {
		switch args[1] {
		case "-n":
			return sh.write("256\n")
		case "-a":
			return sh.write("core file size              (blocks, -c) 0\nopen files                          (-n) 256\nstack size              (kbytes, -s) 8192\ncpu time               (seconds, -t) unlimited\nmax user processes                  (-u) unlimited\nvirtual memory          (kbytes, -v) unlimited\n")
		case "-s":
			return sh.write("8192\n")
		}
	}
	if len(args) == 1 || args[len(args)-1] == "-f" {
		return sh.write("unlimited\n")
	}
	sh.rt.Tel.Partials = append(sh.rt.Tel.Partials, "ulimit "+strings.Join(args[1:], " "))
	sh.bierr("ulimit", "setting limits is not supported in shellsim")
	return 1
}

func biTimes(sh *Shell, args []string) int {
	cpu := float64(sh.rt.Meter.CPU) / 1e6
	m := int(cpu / 60)
	return sh.write(fmt.Sprintf("%dm%.3fs 0m0.000s\n0m0.000s 0m0.000s\n", m, cpu-float64(m*60)))
}

func biCaller(sh *Shell, args []string) int {
	// the call stack innermost first, as FUNCNAME, BASH_SOURCE and
	// BASH_LINENO hold it (bash's caller reads those arrays)
	n := len(sh.frames)
	if n == 0 {
		return 1
	}
	at := func(k int) (frame, bool) {
		if k < 0 || k >= n {
			return frame{}, false
		}
		return sh.frames[n-1-k], true
	}
	if len(args) < 2 {
		line, _ := at(0)
		src := "NULL"
		if f, ok := at(1); ok {
			src = f.src
		}
		return sh.write(fmt.Sprintf("%d %s\n", line.line, src))
	}
	k, err := strconv.Atoi(args[1])
	if err != nil || k < 0 {
		what := "invalid number"
		if strings.HasPrefix(args[1], "-") {
			what = "invalid option"
		}
		sh.bierr("caller", "%s: %s", args[1], what)
		fmt.Fprintln(sh.stderr(), "caller: usage: caller [expr]")
		return 2
	}
	line, ok1 := at(k)
	up, ok2 := at(k + 1)
	if !ok1 || !ok2 {
		return 1
	}
	return sh.write(fmt.Sprintf("%d %s %s\n", line.line, up.fn, up.src))
}

// shellQuote quotes s with single quotes when needed.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-./=+,:@%^", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// funcText renders a function the way bash's declare -f and type do.
func funcText(name string, body *syntax.Stmt) string {
	var b bytes.Buffer
	b.WriteString(name + " () \n")
	if text, ok := bashFuncBody(body); ok {
		return b.String() + text
	}
	blk, ok := body.Cmd.(*syntax.Block)
	if !ok || len(body.Redirs) > 0 {
		syntax.NewPrinter(syntax.Indent(4)).Print(&b, body)
		return b.String()
	}
	b.WriteString("{ \n")
	p := syntax.NewPrinter(syntax.Indent(4))
	for _, st := range blk.Stmts {
		var sb bytes.Buffer
		p.Print(&sb, st)
		for _, line := range strings.Split(strings.TrimRight(sb.String(), "\n"), "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	b.WriteString("}")
	return b.String()
}

// Signal delivers sig to process pid, or to every live process of group
// pid, as kill does (trapped signals run their handler); false when no
// such process is alive.
func (sh *Shell) Signal(pid, sig int, group bool) bool {
	if group {
		return sh.deliverGroup(pid, sig)
	}
	return sh.deliver(pid, sig)
}

// SignalNumber resolves a signal name ("TERM", "SIGTERM", "term") or
// number to its number; EXIT and the shell's pseudo-signals are refused.
func SignalNumber(s string) (int, bool) {
	name, ok := normSignal(s)
	if !ok {
		return 0, false
	}
	switch name {
	case "EXIT", "ERR", "DEBUG", "RETURN":
		if s != "0" {
			return 0, false
		}
		return 0, true
	}
	return signalNum(name), true
}
