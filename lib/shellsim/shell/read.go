package shell

import (
	"mvdan.cc/sh/v3/syntax"

	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// readByte reads one byte from r, charging for it.
func (sh *Shell) readByte(r io.Reader, buf []byte) (byte, error) {
	for {
		n, err := r.Read(buf[:1])
		if n == 1 {
			return buf[0], nil
		}
		if err != nil {
			return 0, err
		}
	}
}

func biRead(sh *Shell, args []string) int {
	raw := false
	delim := byte('\n')
	nchars := -1
	exact := false
	prompt := ""
	arrayName := ""
	fd := 0
	pollOnly := false
	var names []string
	a := args[1:]
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		opt := a[0]
		a = a[1:]
		if opt == "--" {
			break
		}
		for i := 1; i < len(opt); i++ {
			c := opt[i]
			needArg := strings.IndexByte("adnNptu", c) >= 0
			val := ""
			if needArg {
				if i+1 < len(opt) {
					val = opt[i+1:]
				} else if len(a) > 0 {
					val, a = a[0], a[1:]
				} else {
					sh.bierr("read", "-%c: option requires an argument", c)
					return 2
				}
			}
			switch c {
			case 'r':
				raw = true
			case 's', 'e':
			case 'a':
				arrayName = val
			case 'd':
				if val == "" {
					delim = 0
				} else {
					delim = val[0]
				}
			case 'n', 'N':
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 {
					sh.bierr("read", "%s: invalid number", val)
					return 1
				}
				nchars, exact = n, c == 'N'
			case 'p':
				prompt = val
			case 't':
				t, err := strconv.ParseFloat(val, 64)
				if err != nil || t < 0 {
					sh.bierr("read", "%s: invalid timeout specification", val)
					return 1
				}
				pollOnly = t == 0
			case 'u':
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 || n > 9 || sh.fds[n] == nil || sh.fds[n].r == nil {
					sh.bierr("read", "%s: invalid file descriptor specification", val)
					return 1
				}
				fd = n
			default:
				sh.bierr("read", "-%c: invalid option", c)
				fmt.Fprintln(sh.stderr(), "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]")
				return 2
			}
			if needArg {
				break
			}
		}
	}
	names = a
	for _, n := range append([]string{arrayName}, names...) {
		if base, _, _ := strings.Cut(n, "["); n != "" && !syntax.ValidName(base) {
			sh.bierr("read", "`%s': not a valid identifier", n)
			return 1
		}
	}
	_ = prompt // prompts go to a terminal only; stdin is never one here
	var r io.Reader = strings.NewReader("")
	if sh.fds[fd] != nil && sh.fds[fd].r != nil {
		r = sh.fds[fd].r
	}
	if pollOnly {
		// -t 0 reads nothing: it reports whether input is available,
		// and end of file counts as available as it does for select(2).
		if sh.fds[fd] == nil || sh.fds[fd].r == nil {
			return 1
		}
		if p, ok := r.(interface{ Ready() bool }); ok && !p.Ready() {
			return 1
		}
		return 0
	}
	var line []byte
	buf := make([]byte, 1)
	gotDelim := false
	var rerr error
	for nchars < 0 || len(line) < nchars {
		c, err := sh.readByte(r, buf)
		if err != nil {
			if errors.Is(err, command.ErrStopped) {
				sh.fatal(err)
				return 1
			}
			rerr = err
			break
		}
		if sh.charge(1) != nil {
			return 1
		}
		if c == delim && !exact {
			gotDelim = true
			break
		}
		if len(line)&0xffff == 0xffff {
			// Long lines are modeled memory too.
			if err := sh.checkSize(int64(len(line)) + 1); err != nil {
				return 1
			}
		}
		if c == '\\' && !raw && !exact {
			c2, err := sh.readByte(r, buf)
			if err != nil {
				break
			}
			if c2 == '\n' {
				continue
			}
			line = append(line, '\\', c2)
			continue
		}
		line = append(line, c)
	}
	s := string(line)
	status := 0
	if !gotDelim && rerr != nil && (nchars < 0 || len(line) < nchars) {
		status = 1
	}
	if exact {
		if arrayName == "" && len(names) <= 1 {
			name := "REPLY"
			if len(names) == 1 {
				name = names[0]
			}
			if err := sh.SetVar(name, s); err != nil {
				sh.builtinAssignError(err)
				return 1
			}
			return status
		}
	}
	ifs, ok := sh.getVar("IFS")
	if !ok {
		ifs = " \t\n"
	}
	if arrayName != "" {
		fields := readSplit(s, ifs, -1, raw)
		nv := &Var{Variable: expand.Variable{Set: true, Kind: expand.Indexed, List: fields}}
		if err := sh.store(arrayName, nv); err != nil {
			sh.builtinAssignError(err)
			return 1
		}
		return status
	}
	if len(names) == 0 {
		if !raw {
			s = unescapeRead(s)
		}
		if err := sh.SetVar("REPLY", s); err != nil {
			sh.builtinAssignError(err)
			return 1
		}
		return status
	}
	fields := readSplit(s, ifs, len(names), raw)
	for i, n := range names {
		v := ""
		if i < len(fields) {
			v = fields[i]
		}
		if err := sh.SetVar(n, v); err != nil {
			sh.builtinAssignError(err)
			return 1
		}
	}
	return status
}

func unescapeRead(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func biMapfile(sh *Shell, args []string) int {
	trim := false
	delim := byte('\n')
	count, skip, origin := -1, 0, 0
	fd := 0
	callback, quantum := "", 5000 // -C runs callback every quantum lines
	a := args[1:]
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		opt := a[0]
		a = a[1:]
		c := opt[1]
		val := opt[2:]
		if strings.IndexByte("dnsOuCc", c) >= 0 && val == "" {
			if len(a) == 0 {
				sh.bierr(args[0], "-%c: option requires an argument", c)
				return 2
			}
			val, a = a[0], a[1:]
		}
		var err error
		switch c {
		case 't':
			trim = true
		case 'd':
			if val == "" {
				delim = 0
			} else {
				delim = val[0]
			}
		case 'n':
			count, err = strconv.Atoi(val)
		case 's':
			skip, err = strconv.Atoi(val)
		case 'O':
			origin, err = strconv.Atoi(val)
		case 'u':
			fd, err = strconv.Atoi(val)
			if err == nil && (fd < 0 || fd > 9 || sh.fds[fd] == nil) {
				err = errors.New("bad fd")
			}
		case 'C':
			callback = val
		case 'c':
			quantum, err = strconv.Atoi(val)
			if err == nil && quantum <= 0 {
				sh.bierr(args[0], "%s: invalid callback quantum", val)
				return 1
			}
		default:
			sh.bierr(args[0], "-%c: invalid option", c)
			return 2
		}
		if err != nil {
			sh.bierr(args[0], "%s: invalid number", val)
			return 1
		}
	}
	name := "MAPFILE"
	if len(a) > 0 {
		name = a[0]
	}
	var r io.Reader = strings.NewReader("")
	if sh.fds[fd] != nil && sh.fds[fd].r != nil {
		r = sh.fds[fd].r
	}
	var lines []string
	var cur []byte
	buf := make([]byte, 4096)
	// Reading whole chunks is fine unless the descriptor is shared with a
	// later reader; mapfile consumes to EOF anyway (or -n lines).
	done := false
	read := 0
	emit := func(withDelim bool) {
		read++
		if read <= skip {
			cur = cur[:0]
			return
		}
		s := string(cur)
		if withDelim && !trim {
			s += string(delim)
		}
		lines = append(lines, s)
		cur = cur[:0]
		if count > 0 && len(lines) >= count {
			done = true
		}
	}
	one := make([]byte, 1)
	var total, checked int64
	for !done {
		var n int
		var err error
		if count > 0 {
			n, err = r.Read(one)
			if n == 1 {
				buf[0] = one[0]
			}
		} else {
			n, err = r.Read(buf)
		}
		if n > 0 {
			if sh.charge(int64(n)) != nil {
				return 1
			}
			total += int64(n)
			if total-checked > 1<<20 {
				if sh.checkSize(2*total) != nil {
					return 1
				}
				checked = total
			}
			for _, c := range buf[:n] {
				if c == delim {
					emit(true)
					if done {
						break
					}
				} else {
					cur = append(cur, c)
				}
			}
		}
		if err != nil {
			if errors.Is(err, command.ErrStopped) {
				sh.fatal(err)
				return 1
			}
			break
		}
	}
	if len(cur) > 0 && !done {
		emit(false)
	}
	nv := &Var{Variable: expand.Variable{Set: true, Kind: expand.Indexed}}
	if origin > 0 {
		if old := sh.lookup(name); old != nil && old.Kind == expand.Indexed {
			nv = cloneVar(old)
		}
	}
	for i, l := range lines {
		if callback != "" && (i+1)%quantum == 0 {
			// bash evaluates "callback index 'line'" before it assigns the line
			biEval(sh, []string{"eval", fmt.Sprintf("%s %d '%s'", callback, origin+i, strings.ReplaceAll(l, "'", `'\''`))})
			if sh.stopped() {
				return sh.status
			}
		}
		indexSet(nv, origin+i, l)
	}
	if err := sh.store(name, nv); err != nil {
		sh.builtinAssignError(err)
		return 1
	}
	return 0
}

func biGetopts(sh *Shell, args []string) int {
	if len(args) < 3 {
		io.WriteString(sh.stderr(), "getopts: usage: getopts optstring name [arg ...]\n") // bash: no line prefix
		return 2
	}
	optstr, name := args[1], args[2]
	params := sh.params
	if len(args) > 3 {
		params = args[3:]
	}
	silent := strings.HasPrefix(optstr, ":")
	if silent {
		optstr = optstr[1:]
	}
	oi, _ := sh.getVar("OPTIND")
	optind, err := strconv.Atoi(oi)
	if err != nil || optind < 1 {
		optind = 1
	}
	if optind != sh.getoptsLast {
		sh.optind = 0
	}
	idx := optind - 1
	setInd := func(n int) {
		sh.SetVar("OPTIND", strconv.Itoa(n))
		sh.getoptsLast = n
	}
	if idx >= len(params) {
		sh.SetVar(name, "?")
		setInd(optind)
		return 1
	}
	arg := params[idx]
	if sh.optind == 0 {
		if arg == "--" {
			sh.SetVar(name, "?")
			setInd(optind + 1)
			return 1
		}
		if len(arg) < 2 || arg[0] != '-' {
			sh.SetVar(name, "?")
			setInd(optind)
			return 1
		}
		sh.optind = 1
	}
	c := arg[sh.optind]
	sh.optind++
	next := func() {
		if sh.optind >= len(arg) {
			sh.optind = 0
			setInd(optind + 1)
		} else {
			setInd(optind)
		}
	}
	i := strings.IndexByte(optstr, c)
	if i < 0 || c == ':' {
		if silent {
			sh.SetVar("OPTARG", string(c))
		} else {
			fmt.Fprintf(sh.stderr(), "%s: illegal option -- %c\n", sh.arg0, c)
			sh.unsetVar("OPTARG")
		}
		sh.SetVar(name, "?")
		next()
		return 0
	}
	if i+1 < len(optstr) && optstr[i+1] == ':' {
		if sh.optind < len(arg) {
			sh.SetVar("OPTARG", arg[sh.optind:])
			sh.optind = 0
			setInd(optind + 1)
		} else if idx+1 < len(params) {
			sh.SetVar("OPTARG", params[idx+1])
			sh.optind = 0
			setInd(optind + 2)
		} else {
			sh.optind = 0
			setInd(optind + 1)
			if silent {
				sh.SetVar(name, ":")
				sh.SetVar("OPTARG", string(c))
			} else {
				fmt.Fprintf(sh.stderr(), "%s: option requires an argument -- %c\n", sh.arg0, c)
				sh.SetVar(name, "?")
				sh.unsetVar("OPTARG")
			}
			return 0
		}
		sh.SetVar(name, string(c))
		return 0
	}
	sh.unsetVar("OPTARG")
	sh.SetVar(name, string(c))
	next()
	return 0
}

// readSplit splits a line read by read into at most n fields (n < 0: all)
// the way bash does: IFS whitespace trims and collapses, every other IFS
// character ends exactly one field, and the last name takes the rest of the
// line. Without -r, a backslash quotes the next character.
func readSplit(line, ifs string, n int, raw bool) []string {
	type ch struct {
		c   byte
		esc bool
	}
	var cs []ch
	for i := 0; i < len(line); i++ {
		if !raw && line[i] == '\\' && i+1 < len(line) {
			cs = append(cs, ch{line[i+1], true})
			i++
			continue
		}
		cs = append(cs, ch{line[i], false})
	}
	isIFS := func(c ch) bool { return !c.esc && strings.IndexByte(ifs, c.c) >= 0 }
	isWS := func(c ch) bool { return isIFS(c) && (c.c == ' ' || c.c == '\t' || c.c == '\n') }
	str := func(cs []ch) string {
		b := make([]byte, len(cs))
		for i, c := range cs {
			b[i] = c.c
		}
		return string(b)
	}
	if ifs == "" {
		return []string{str(cs)}
	}
	next := func(cs []ch, i int) (string, int) {
		start := i
		for i < len(cs) && !isIFS(cs[i]) {
			i++
		}
		f := str(cs[start:i])
		for i < len(cs) && isWS(cs[i]) {
			i++
		}
		if i < len(cs) && isIFS(cs[i]) && !isWS(cs[i]) {
			i++
			for i < len(cs) && isWS(cs[i]) {
				i++
			}
		}
		return f, i
	}
	i := 0
	for i < len(cs) && isWS(cs[i]) {
		i++
	}
	var fields []string
	for i < len(cs) {
		if n > 0 && len(fields) == n-1 {
			rest := cs[i:]
			for len(rest) > 0 && isWS(rest[len(rest)-1]) {
				rest = rest[:len(rest)-1]
			}
			if f, j := next(rest, 0); j >= len(rest) {
				fields = append(fields, f)
			} else {
				fields = append(fields, str(rest))
			}
			break
		}
		f, j := next(cs, i)
		fields = append(fields, f)
		i = j
	}
	return fields
}
