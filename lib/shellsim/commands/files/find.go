package files

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"github.com/shellbox/shellbox/lib/shellsim/commands/system"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// Find searches a directory tree.
//
//	find [-P] [PATH...] [EXPRESSION]
//
// Tests: -name -iname -path -ipath -wholename -regex -iregex -type -size
// -mtime -mmin -newer -newermt -empty -perm -user -group -uid -gid -links
// -executable -readable -writable -true -false. Options: -maxdepth
// -mindepth -depth -xdev -mount -noleaf. Actions: -print -print0 -printf
// -ls -delete -exec/-execdir ... {} ; and {} + -prune -quit. Operators: ! -not
// -a -and -o -or ( ) and ",". Directories are read in name order (GNU uses
// the order the filesystem returns). -L/-H, -fprint*, -ok and -okdir
// are not modelled and fail as Partial.
func Find(inv *command.Invocation) int {
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	args := inv.Args[1:]
	if len(args) == 1 && (args[0] == "--help" || args[0] == "--version") {
		return getopt.HelpOrVersion(inv, &getopt.Spec{Short: "PLH", Partial: map[string]bool{"L": true, "H": true}}, args[0])
	}
	for len(args) > 0 {
		switch args[0] {
		case "-P":
			args = args[1:]
			continue
		case "-L", "-H":
			return getopt.Unsupported(inv, args[0][1:], 1)
		}
		break
	}
	var starts []string
	for len(args) > 0 && !isFindExprStart(args[0]) {
		starts = append(starts, args[0])
		args = args[1:]
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	f := &finder{inv: inv, maxDepth: -1, args: args, regexType: posixre.Options{Flavor: posixre.Emacs}}
	f.w = bufio.NewWriter(inv.Stdout)
	var expr findExpr
	if len(args) > 0 {
		e, err := f.parseOr()
		if err == nil && f.pos < len(f.args) {
			if f.args[f.pos] == ")" {
				err = errors.New("invalid expression; you have too many ')'")
			} else {
				err = fmt.Errorf("paths must precede expression: `%s'", f.args[f.pos])
			}
		}
		if err != nil {
			if !errors.Is(err, errFindReported) {
				fmt.Fprintf(inv.Stderr, "find: %s\n", err)
			}
			return 1
		}
		expr = e
	}
	if !f.hasAction {
		if expr == nil {
			expr = findPrint{}
		} else {
			expr = findAnd{expr, findPrint{}}
		}
	}
	f.expr = expr
	for _, s := range starts {
		p := inv.Abs(s)
		fi, err := inv.FS.Lstat(p)
		if err != nil {
			f.warn("%s: %s", q(s), command.Message(err))
			f.status = 1
			continue
		}
		if err := f.walk(s, p, fi, 0); err != nil {
			f.w.Flush()
			return 1
		}
		if f.quit {
			break
		}
	}
	if err := f.flushBatches(); err != nil {
		return 1
	}
	if err := f.w.Flush(); err != nil {
		return 1
	}
	return f.status
}

var errFindReported = errors.New("reported")

// warn prints a diagnostic after flushing standard output, as gnulib's
// error() does, so the two streams interleave as with GNU find.
func (f *finder) warn(format string, a ...any) {
	f.w.Flush()
	fmt.Fprintf(f.inv.Stderr, "find: "+format+"\n", a...)
}

func isFindExprStart(a string) bool {
	return a == "!" || a == "(" || a == "," || strings.HasPrefix(a, "-") && len(a) > 1
}

type finder struct {
	inv        *command.Invocation
	w          *bufio.Writer
	args       []string
	pos        int
	expr       findExpr
	hasAction  bool
	maxDepth   int
	minDepth   int
	depthLast  bool
	status     int
	quit       bool
	batches    []*findBatch
	printfStop bool
	// regexType is the syntax of -regex patterns after it (-regextype).
	regexType posixre.Options
}

// visit is one node met during the walk.
type visit struct {
	name  string // as printed
	abs   string
	fi    command.FileInfo
	depth int
	prune bool
}

type findExpr interface {
	eval(f *finder, v *visit) (bool, error)
}

type findAnd struct{ a, b findExpr }
type findOr struct{ a, b findExpr }
type findNot struct{ e findExpr }
type findComma struct{ a, b findExpr }
type findPred func(f *finder, v *visit) (bool, error)
type findPrint struct{}

func (e findAnd) eval(f *finder, v *visit) (bool, error) {
	ok, err := e.a.eval(f, v)
	if !ok || err != nil {
		return false, err
	}
	return e.b.eval(f, v)
}

func (e findOr) eval(f *finder, v *visit) (bool, error) {
	ok, err := e.a.eval(f, v)
	if ok || err != nil {
		return ok, err
	}
	return e.b.eval(f, v)
}

func (e findNot) eval(f *finder, v *visit) (bool, error) {
	ok, err := e.e.eval(f, v)
	return !ok, err
}

func (e findComma) eval(f *finder, v *visit) (bool, error) {
	if _, err := e.a.eval(f, v); err != nil {
		return false, err
	}
	return e.b.eval(f, v)
}

func (p findPred) eval(f *finder, v *visit) (bool, error) { return p(f, v) }

func (findPrint) eval(f *finder, v *visit) (bool, error) {
	_, err := f.w.WriteString(v.name + "\n")
	return err == nil, err
}

func (f *finder) walk(name, abs string, fi command.FileInfo, depth int) error {
	if err := f.inv.Sys.Charge(10); err != nil {
		return err
	}
	v := &visit{name: name, abs: abs, fi: fi, depth: depth}
	inRange := depth >= f.minDepth && (f.maxDepth < 0 || depth <= f.maxDepth)
	if !f.depthLast && inRange {
		if _, err := f.expr.eval(f, v); err != nil {
			return err
		}
		if f.quit {
			return nil
		}
	}
	if fi.IsDir() && !v.prune && (f.maxDepth < 0 || depth < f.maxDepth) {
		ents, err := f.inv.FS.ReadDir(abs)
		if err != nil {
			f.warn("%s: %s", q(name), command.Message(err))
			f.status = 1
		}
		for _, e := range ents {
			child := name + "/" + e.Name
			if strings.HasSuffix(name, "/") {
				child = name + e.Name
			}
			if err := f.walk(child, path.Join(abs, e.Name), e, depth+1); err != nil {
				return err
			}
			if f.quit {
				return nil
			}
		}
	}
	if f.depthLast && inRange {
		if _, err := f.expr.eval(f, v); err != nil {
			return err
		}
	}
	return nil
}

// --- parsing ---

func (f *finder) peek() string {
	if f.pos < len(f.args) {
		return f.args[f.pos]
	}
	return ""
}

func (f *finder) parseOr() (findExpr, error) {
	left, err := f.parseAnd()
	if err != nil {
		return nil, err
	}
	for {
		switch f.peek() {
		case "-o", "-or":
			f.pos++
			right, err := f.parseAnd()
			if err != nil {
				return nil, err
			}
			left = findOr{left, right}
		case ",":
			f.pos++
			right, err := f.parseAnd()
			if err != nil {
				return nil, err
			}
			left = findComma{left, right}
		default:
			return left, nil
		}
	}
}

func (f *finder) parseAnd() (findExpr, error) {
	left, err := f.parseUnary()
	if err != nil {
		return nil, err
	}
	for {
		t := f.peek()
		switch t {
		case "", ")", "-o", "-or", ",":
			return left, nil
		case "-a", "-and":
			f.pos++
		}
		right, err := f.parseUnary()
		if err != nil {
			return nil, err
		}
		left = findAnd{left, right}
	}
}

func (f *finder) parseUnary() (findExpr, error) {
	t := f.peek()
	switch t {
	case "":
		return nil, errors.New("invalid expression")
	case "-o", "-or", "-a", "-and", ",":
		return nil, fmt.Errorf("invalid expression; you have used a binary operator '%s' with nothing before it.", t)
	case "!", "-not":
		f.pos++
		if f.peek() == "" {
			return nil, fmt.Errorf("expected an expression after '%s'", t)
		}
		e, err := f.parseUnary()
		if err != nil {
			return nil, err
		}
		return findNot{e}, nil
	case "(":
		f.pos++
		if f.peek() == ")" {
			return nil, errors.New("invalid expression; empty parentheses are not allowed.")
		}
		if f.peek() == "" {
			return nil, errors.New("invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('")
		}
		e, err := f.parseOr()
		if err != nil {
			return nil, err
		}
		if f.peek() != ")" {
			return nil, errors.New("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		f.pos++
		return e, nil
	}
	f.pos++
	return f.primary(t)
}

func (f *finder) arg(name string) (string, error) {
	if f.pos >= len(f.args) {
		return "", fmt.Errorf("missing argument to `%s'", name)
	}
	a := f.args[f.pos]
	f.pos++
	return a, nil
}

var findUnsupported = map[string]bool{
	"-fls": true, "-fprint": true, "-fprint0": true, "-fprintf": true, "-ok": true,
	"-okdir": true, "-follow": true, "-lname": true, "-ilname": true, "-samefile": true,
	"-inum": true, "-atime": true, "-amin": true, "-ctime": true, "-cmin": true, "-anewer": true,
	"-cnewer": true, "-used": true, "-xtype": true, "-context": true, "-fstype": true,
	"-nouser": true, "-nogroup": true, "-daystart": true, "-newerat": true, "-newerct": true,
	"-newermm": true, "-neweraa": true, "-newercc": true, "-ignore_readdir_race": true,
	"-noignore_readdir_race": true, "-files0-from": true,
}

func (f *finder) primary(t string) (findExpr, error) {
	inv := f.inv
	switch t {
	case "-print":
		f.hasAction = true
		return findPrint{}, nil
	case "-print0":
		f.hasAction = true
		return findPred(func(f *finder, v *visit) (bool, error) {
			_, err := f.w.WriteString(v.name + "\x00")
			return err == nil, err
		}), nil
	case "-ls":
		f.hasAction = true
		now := inv.Sys.Now()
		return findPred(func(f *finder, v *visit) (bool, error) {
			fi := v.fi
			n := fi.Nlink
			if n == 0 {
				n = 1
			}
			line := fmt.Sprintf("%9d %6d %s %3d %-8s %-8s %8d %s %s", fi.Ino, diskUsage(fi)/1024, modeString(fi.Mode), n,
				userName(f.inv, fi.UID), groupName(f.inv, fi.GID), fi.Size, lsTime(fi.ModTime, now), v.name)
			if isSymlink(fi) {
				t := fi.Target
				if t == "" {
					t, _ = f.inv.FS.Readlink(v.abs)
				}
				line += " -> " + t
			}
			_, err := f.w.WriteString(line + "\n")
			return err == nil, err
		}), nil
	case "-printf":
		f.hasAction = true
		format, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		return findPred(func(f *finder, v *visit) (bool, error) {
			_, err := f.w.WriteString(f.printf(format, v))
			return err == nil, err
		}), nil
	case "-true":
		return findPred(func(*finder, *visit) (bool, error) { return true, nil }), nil
	case "-false":
		return findPred(func(*finder, *visit) (bool, error) { return false, nil }), nil
	case "-quit":
		return findPred(func(f *finder, v *visit) (bool, error) { f.quit = true; return true, nil }), nil
	case "-prune":
		return findPred(func(f *finder, v *visit) (bool, error) { v.prune = true; return true, nil }), nil
	case "-depth", "-d":
		f.depthLast = true
		return findPred(func(*finder, *visit) (bool, error) { return true, nil }), nil
	case "-xdev", "-mount", "-noleaf", "-nowarn", "-warn":
		return findPred(func(*finder, *visit) (bool, error) { return true, nil }), nil
	case "-maxdepth", "-mindepth":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("Expected a positive decimal integer argument to %s, but got %s", t, q(a))
		}
		if t == "-maxdepth" {
			f.maxDepth = n
		} else {
			f.minDepth = n
		}
		return findPred(func(*finder, *visit) (bool, error) { return true, nil }), nil
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
		pat, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		fold := strings.HasPrefix(t, "-i")
		whole := !strings.HasSuffix(t, "name") || strings.HasSuffix(t, "wholename")
		return findPred(func(f *finder, v *visit) (bool, error) {
			if whole {
				return fnmatch(pat, v.name, fold), nil
			}
			b := baseName(v.name)
			return fnmatch(pat, b, fold), nil
		}), nil
	case "-regex", "-iregex":
		pat, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		o := f.regexType
		o.ICase = t == "-iregex"
		o.Fuel = func(n int64) error { return f.inv.Sys.Charge(n / 4) }
		e, err := posixre.Parse(pat, o)
		var re *posixre.Regexp
		if err == nil {
			re, err = e.Whole().Compile(o)
		}
		if err != nil {
			return nil, fmt.Errorf("failed to compile regular expression %s: %s", q(pat), err)
		}
		return findPred(func(f *finder, v *visit) (bool, error) {
			ok := re.MatchString(v.name)
			return ok, re.Err()
		}), nil
	case "-regextype":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		o, ok := regexTypes[a]
		if !ok {
			return nil, f.unsupported(t + " " + a)
		}
		f.regexType = o
		return findPred(func(*finder, *visit) (bool, error) { return true, nil }), nil
	case "-type":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		types := strings.Split(a, ",")
		for _, ty := range types {
			if len(ty) != 1 || !strings.Contains("fdlpscbD", ty) {
				return nil, fmt.Errorf("Unknown argument to -type: %s", ty)
			}
		}
		return findPred(func(f *finder, v *visit) (bool, error) {
			m := v.fi.Mode
			for _, ty := range types {
				switch ty {
				case "f":
					if m.IsRegular() {
						return true, nil
					}
				case "d":
					if m.IsDir() {
						return true, nil
					}
				case "l":
					if m&fs.ModeSymlink != 0 {
						return true, nil
					}
				case "p":
					if m&fs.ModeNamedPipe != 0 {
						return true, nil
					}
				case "s":
					if m&fs.ModeSocket != 0 {
						return true, nil
					}
				case "c":
					if m&fs.ModeCharDevice != 0 {
						return true, nil
					}
				case "b":
					if m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0 {
						return true, nil
					}
				}
			}
			return false, nil
		}), nil
	case "-size":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		cmp, s := numCmp(a)
		unit := int64(512)
		if s != "" {
			switch s[len(s)-1] {
			case 'c':
				unit, s = 1, s[:len(s)-1]
			case 'w':
				unit, s = 2, s[:len(s)-1]
			case 'b':
				unit, s = 512, s[:len(s)-1]
			case 'k':
				unit, s = 1024, s[:len(s)-1]
			case 'M':
				unit, s = 1<<20, s[:len(s)-1]
			case 'G':
				unit, s = 1<<30, s[:len(s)-1]
			}
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("invalid -size type `%s'", a)
		}
		return findPred(func(f *finder, v *visit) (bool, error) {
			units := (v.fi.Size + unit - 1) / unit
			return compare(cmp, units, n), nil
		}), nil
	case "-mtime", "-mmin":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		cmp, s := numCmp(a)
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("invalid argument `%s' to `%s'", a, t)
		}
		per := 24 * time.Hour
		if t == "-mmin" {
			per = time.Minute
		}
		now := inv.Sys.Now()
		return findPred(func(f *finder, v *visit) (bool, error) {
			// Whole days (minutes) of age, fractions dropped, as GNU does.
			age := now.Sub(v.fi.ModTime)
			units := int64(math.Floor(float64(age) / float64(per)))
			return compare(cmp, units, n), nil
		}), nil
	case "-newer":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		ref, err := inv.FS.Stat(inv.Abs(a))
		if err != nil {
			fmt.Fprintf(inv.Stderr, "find: %s: %s\n", q(a), command.Message(err))
			return nil, errFindReported
		}
		return findPred(func(f *finder, v *visit) (bool, error) { return v.fi.ModTime.After(ref.ModTime), nil }), nil
	case "-newermt":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		ref, err := system.ParseDate(a, inv.Sys.Now())
		if err != nil {
			return nil, fmt.Errorf("I cannot figure out how to interpret %s as a date or time", q(a))
		}
		return findPred(func(f *finder, v *visit) (bool, error) { return v.fi.ModTime.After(ref), nil }), nil
	case "-empty":
		return findPred(func(f *finder, v *visit) (bool, error) {
			if v.fi.IsDir() {
				ents, err := f.inv.FS.ReadDir(v.abs)
				return err == nil && len(ents) == 0, nil
			}
			return v.fi.Mode.IsRegular() && v.fi.Size == 0, nil
		}), nil
	case "-perm":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		kind := byte(0)
		s := a
		if s != "" && (s[0] == '-' || s[0] == '/' || s[0] == '+') {
			kind, s = s[0], s[1:]
		}
		want, err := parseMode(s, 0, false)
		if err != nil {
			return nil, fmt.Errorf("invalid mode %s", q(a))
		}
		if s != "" && (s[0] < '0' || s[0] > '7') {
			// Symbolic modes start from 0 without the umask.
			want, _ = parseMode(strings.ReplaceAll(s, "+", "+"), 0, false)
		}
		return findPred(func(f *finder, v *visit) (bool, error) {
			m := octalMode(v.fi.Mode)
			switch kind {
			case '-':
				return m&want == want, nil
			case '/', '+':
				return want == 0 || m&want != 0, nil
			}
			return m == want, nil
		}), nil
	case "-user", "-group", "-uid", "-gid":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		users := inv.Sys.Users()
		var id int
		var ok bool
		cmp, s := byte(0), a
		switch t {
		case "-user":
			id, ok = users.LookupUser(a)
		case "-group":
			id, ok = users.LookupGroup(a)
		default:
			cmp, s = numCmp(a)
			var e error
			id, e = strconv.Atoi(s)
			ok = e == nil
		}
		if !ok {
			if n, e := strconv.Atoi(a); e == nil {
				id, ok = n, true
			}
		}
		if !ok {
			if t == "-group" || t == "-gid" {
				return nil, fmt.Errorf("%s is not the name of an existing group", q(a))
			}
			return nil, fmt.Errorf("%s is not the name of a known user", q(a))
		}
		group := t == "-group" || t == "-gid"
		return findPred(func(f *finder, v *visit) (bool, error) {
			have := v.fi.UID
			if group {
				have = v.fi.GID
			}
			return compare(cmp, int64(have), int64(id)), nil
		}), nil
	case "-links":
		a, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		cmp, s := numCmp(a)
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("invalid argument `%s' to `-links'", a)
		}
		return findPred(func(f *finder, v *visit) (bool, error) {
			l := v.fi.Nlink
			if l == 0 {
				l = 1
			}
			return compare(cmp, int64(l), n), nil
		}), nil
	case "-executable", "-readable", "-writable":
		bit := map[string]uint32{"-executable": 0o111, "-readable": 0o444, "-writable": 0o222}[t]
		return findPred(func(f *finder, v *visit) (bool, error) {
			m := octalMode(v.fi.Mode)
			if f.inv.Sys.Users().UID() == 0 && t != "-executable" {
				return true, nil
			}
			return m&bit != 0, nil
		}), nil
	case "-delete":
		f.hasAction = true
		f.depthLast = true
		return findPred(func(f *finder, v *visit) (bool, error) {
			if v.name == "." {
				return true, nil
			}
			if err := f.inv.FS.Remove(v.abs); err != nil {
				f.warn("cannot delete %s: %s", q(v.name), command.Message(err))
				f.status = 1
				return false, nil
			}
			return true, nil
		}), nil
	case "-exec", "-execdir":
		f.hasAction = true
		var cmd []string
		plus := false
		for {
			if f.pos >= len(f.args) {
				return nil, fmt.Errorf("missing argument to `%s'", t)
			}
			a := f.args[f.pos]
			f.pos++
			if a == ";" {
				break
			}
			if a == "+" && len(cmd) > 0 && cmd[len(cmd)-1] == "{}" {
				plus = true
				cmd = cmd[:len(cmd)-1]
				break
			}
			cmd = append(cmd, a)
		}
		if len(cmd) == 0 {
			return nil, fmt.Errorf("missing argument to `%s'", t)
		}
		dirMode := t == "-execdir"
		if plus {
			b := &findBatch{cmd: cmd, dirMode: dirMode}
			f.batches = append(f.batches, b)
			return findPred(func(f *finder, v *visit) (bool, error) {
				name := v.name
				if dirMode {
					name = "./" + baseName(v.name)
				}
				b.items = append(b.items, name)
				if len(b.items) >= 4096 {
					return true, f.runBatch(b, v)
				}
				return true, nil
			}), nil
		}
		return findPred(func(f *finder, v *visit) (bool, error) {
			name, dir := v.name, ""
			if dirMode {
				name, dir = "./"+baseName(v.name), path.Dir(v.abs)
			}
			argv := make([]string, len(cmd))
			for i, c := range cmd {
				argv[i] = strings.ReplaceAll(c, "{}", name)
			}
			st, err := f.exec(argv, dir)
			if err != nil {
				return false, err
			}
			return st == 0, nil
		}), nil
	}
	if findUnsupported[t] || t == "-L" || t == "-H" {
		return nil, f.unsupported(t)
	}
	if strings.HasPrefix(t, "-") {
		return nil, fmt.Errorf("unknown predicate `%s'", t)
	}
	return nil, fmt.Errorf("paths must precede expression: `%s'", t)
}

func (f *finder) unsupported(what string) error {
	f.inv.Sys.Partial("find " + what)
	fmt.Fprintf(f.inv.Stderr, "find: %s is not supported in ShellSim\n", what)
	return errFindReported
}

type findBatch struct {
	cmd     []string
	items   []string
	dirMode bool
	dir     string
}

func (f *finder) exec(argv []string, dir string) (int, error) {
	if err := f.w.Flush(); err != nil {
		return 0, err
	}
	st, stop := runChild(f.inv, command.ExecRequest{Args: argv, Dir: dir, Stdin: f.inv.Stdin, Stdout: f.inv.Stdout, Stderr: f.inv.Stderr})
	if stop {
		return st, command.ErrStopped
	}
	return st, nil
}

func (f *finder) runBatch(b *findBatch, v *visit) error {
	if len(b.items) == 0 {
		return nil
	}
	argv := append(append([]string{}, b.cmd...), b.items...)
	b.items = b.items[:0]
	st, err := f.exec(argv, b.dir)
	if err != nil {
		return err
	}
	if st != 0 {
		f.status = 1
	}
	return nil
}

func (f *finder) flushBatches() error {
	for _, b := range f.batches {
		if err := f.runBatch(b, nil); err != nil {
			return err
		}
	}
	return nil
}

// numCmp splits find's [+-]N into a comparison and the number.
func numCmp(a string) (byte, string) {
	if a != "" && (a[0] == '+' || a[0] == '-') {
		return a[0], a[1:]
	}
	return 0, a
}

func compare(cmp byte, have, want int64) bool {
	switch cmp {
	case '+':
		return have > want
	case '-':
		return have < want
	}
	return have == want
}

// emacsToGo converts find's default (Emacs) regular expression syntax to
// Go's: \( \) \| \{ \} are the operators and bare ( ) | { } are literal.
// regexTypes are the -regextype names posixre reads (GNU find's other
// types, ed and posix-minimal-basic, are refused as unsupported).
var regexTypes = map[string]posixre.Options{
	"emacs":             {Flavor: posixre.Emacs},
	"findutils-default": {Flavor: posixre.Emacs},
	"posix-basic":       {},
	"grep":              {},
	"posix-extended":    {Extended: true},
	"egrep":             {Extended: true},
	"posix-egrep":       {Extended: true},
	"sed":               {Flavor: posixre.Sed},
	"awk":               {Flavor: posixre.Awk},
	"posix-awk":         {Flavor: posixre.Awk},
	"gnu-awk":           {Flavor: posixre.Awk},
}

// printf renders find -printf's directives.
func (f *finder) printf(format string, v *visit) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' && i+1 < len(format) {
			if format[i+1] == 'c' {
				f.printfStop = true
				return b.String()
			}
			j := i + 2
			if format[i+1] >= '0' && format[i+1] <= '7' {
				j = i + 1
				for j < len(format) && j < i+4 && format[j] >= '0' && format[j] <= '7' {
					j++
				}
			}
			b.WriteString(unescape(format[i:j]))
			i = j - 1
			continue
		}
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		spec := format[i+1 : j]
		var s string
		fi := v.fi
		d := format[j]
		switch d {
		case '%':
			s = "%"
		case 'p':
			s = v.name
		case 'f':
			s = baseName(v.name)
		case 'h':
			s = dirName(v.name)
			if !strings.Contains(strings.TrimRight(v.name, "/"), "/") {
				s = "."
			}
		case 'P':
			s = f.relToStart(v)
		case 's':
			s = strconv.FormatInt(fi.Size, 10)
		case 'd':
			s = strconv.Itoa(v.depth)
		case 'm':
			s = strconv.FormatUint(uint64(octalMode(fi.Mode)), 8)
		case 'M':
			s = modeString(fi.Mode)
		case 'u':
			s = userName(f.inv, fi.UID)
		case 'g':
			s = groupName(f.inv, fi.GID)
		case 'U':
			s = strconv.Itoa(fi.UID)
		case 'G':
			s = strconv.Itoa(fi.GID)
		case 'i':
			s = strconv.FormatUint(fi.Ino, 10)
		case 'n':
			n := fi.Nlink
			if n == 0 {
				n = 1
			}
			s = strconv.Itoa(n)
		case 'k':
			s = strconv.FormatInt(diskUsage(fi)/1024, 10)
		case 'b':
			s = strconv.FormatInt(diskUsage(fi)/512, 10)
		case 'l':
			if isSymlink(fi) {
				s = fi.Target
				if s == "" {
					s, _ = f.inv.FS.Readlink(v.abs)
				}
			}
		case 'y':
			s = findTypeLetter(fi)
		case 't':
			s = fi.ModTime.UTC().Format("Mon Jan _2 15:04:05.0000000000 2006")
		case 'T':
			if j+1 < len(format) {
				j++
				s = findTime(format[j], fi.ModTime.UTC())
			}
		default:
			f.inv.Sys.Partial("find -printf %" + string(d))
			s = "%" + string(d)
		}
		if spec != "" {
			s = fmt.Sprintf("%"+spec+"s", s)
		}
		b.WriteString(s)
		i = j
	}
	return b.String()
}

func (f *finder) relToStart(v *visit) string {
	if v.depth == 0 {
		return ""
	}
	parts := strings.Split(v.name, "/")
	// The last depth components are below the start.
	if len(parts) >= v.depth {
		return strings.Join(parts[len(parts)-v.depth:], "/")
	}
	return v.name
}

func findTypeLetter(fi command.FileInfo) string {
	m := fi.Mode
	switch {
	case m.IsDir():
		return "d"
	case m&fs.ModeSymlink != 0:
		return "l"
	case m&fs.ModeNamedPipe != 0:
		return "p"
	case m&fs.ModeSocket != 0:
		return "s"
	case m&fs.ModeCharDevice != 0:
		return "c"
	case m&fs.ModeDevice != 0:
		return "b"
	}
	return "f"
}

func findTime(k byte, t time.Time) string {
	switch k {
	case '@':
		return fmt.Sprintf("%d.%010d", t.Unix(), t.Nanosecond()*10)
	case 'Y':
		return t.Format("2006")
	case 'm':
		return t.Format("01")
	case 'd':
		return t.Format("02")
	case 'H':
		return t.Format("15")
	case 'M':
		return t.Format("04")
	case 'S':
		return fmt.Sprintf("%02d.%010d", t.Second(), t.Nanosecond()*10)
	case 'F':
		return t.Format("2006-01-02")
	case 'T':
		return fmt.Sprintf("%s.%010d", t.Format("15:04:05"), t.Nanosecond()*10)
	case 'D':
		return t.Format("01/02/06")
	case 's':
		return strconv.FormatInt(t.Unix(), 10)
	case '+':
		return t.Format("2006-01-02+15:04:05") + fmt.Sprintf(".%010d", t.Nanosecond()*10)
	}
	return system.Strftime("%"+string(k), t)
}
