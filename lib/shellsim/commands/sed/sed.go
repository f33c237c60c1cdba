package sed

// sed - stream editor
//
// Synopsis:
//
//	sed [-nEsuz] [-i[SUFFIX]] [-l N] [-e SCRIPT]... [-f FILE]... [SCRIPT] [FILE]...
//
// A GNU sed work-alike: the commands s y a i c d D p P n N g G h H x b t T
// : = l q Q r R w W z F e { } !, addresses N $ /re/ \cREc first~step
// addr,+N addr,~N 0,/re/ with the I and M flags, s flags g p N i I m M w e,
// case conversion (\U \L \u \l \E) in replacements, the GNU one-liner
// forms of a, i and c, and in-place editing with backup suffixes. Regexes
// are POSIX BRE (ERE with -E/-r) with GNU sed's extensions, matched by
// lib/shellsim/posixre (leftmost-longest; back-references on its metered
// backtracking matcher). The e command and the s///e flag run "sh -c" through the
// machine. Not supported, recorded as partial: L, --posix and --debug.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

type options struct {
	quiet          bool
	ere            bool
	inPlace        bool
	suffix         string
	separate       bool
	nulls          bool
	posix          bool
	sandbox        bool // reject e, r, w and friends
	followSymlinks bool
	lineLen        int
}

type scriptPart struct {
	text string
	file string // "" for -e
}

const usage = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n"

// Sed runs the sed command.
func Sed(inv *command.Invocation) (status int) {
	defer func() {
		// A bug in sed must not take the machine down.
		if r := recover(); r != nil {
			fmt.Fprintf(inv.Stderr, "sed: internal error: %v\n", r)
			status = 4
		}
	}()
	return sed(inv)
}

func sed(inv *command.Invocation) int {
	if err := inv.Sys.Charge(50); err != nil {
		return 1
	}
	opt := &options{lineLen: 70}
	var scripts []scriptPart
	var operands []string
	args := inv.Args[1:]
	fail := func(format string, a ...any) int {
		fmt.Fprintf(inv.Stderr, "sed: "+format+"\n", a...)
		fmt.Fprint(inv.Stderr, usage)
		return 1
	}
	partial := func(feature string) int {
		inv.Sys.Partial(feature)
		fmt.Fprintf(inv.Stderr, "sed: %s: not supported in shellsim\n", feature)
		return 1
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			needVal := func() (string, bool) {
				if hasVal {
					return val, true
				}
				if i+1 < len(args) {
					i++
					return args[i], true
				}
				return "", false
			}
			switch name {
			case "quiet", "silent":
				opt.quiet = true
			case "regexp-extended":
				opt.ere = true
			case "separate":
				opt.separate = true
			case "null-data":
				opt.nulls = true
			case "unbuffered":
			case "in-place":
				opt.inPlace, opt.separate = true, true
				if hasVal {
					opt.suffix = val
				}
			case "expression":
				v, ok := needVal()
				if !ok {
					return fail("option '--expression' requires an argument")
				}
				scripts = append(scripts, scriptPart{text: v})
			case "file":
				v, ok := needVal()
				if !ok {
					return fail("option '--file' requires an argument")
				}
				scripts = append(scripts, scriptPart{file: v})
			case "line-length":
				v, ok := needVal()
				if !ok {
					return fail("option '--line-length' requires an argument")
				}
				opt.lineLen = atoi(v)
			case "help":
				io.WriteString(inv.Stdout, usage)
				return 0
			case "version":
				io.WriteString(inv.Stdout, "sed (GNU sed) 4.9\n")
				return 0
			case "sandbox":
				opt.sandbox = true
			case "follow-symlinks":
				opt.followSymlinks = true
			case "posix", "debug":
				return partial("sed --" + name)
			default:
				return fail("unrecognized option '%s'", a)
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
	short:
		for j := 1; j < len(a); j++ {
			switch c := a[j]; c {
			case 'n':
				opt.quiet = true
			case 'E', 'r':
				opt.ere = true
			case 's':
				opt.separate = true
			case 'z':
				opt.nulls = true
			case 'u':
			case 'i':
				opt.inPlace, opt.separate = true, true
				opt.suffix = a[j+1:]
				break short
			case 'e', 'f', 'l':
				v := a[j+1:]
				if v == "" {
					if i+1 >= len(args) {
						return fail("option requires an argument -- '%c'", c)
					}
					i++
					v = args[i]
				}
				switch c {
				case 'e':
					scripts = append(scripts, scriptPart{text: v})
				case 'f':
					scripts = append(scripts, scriptPart{file: v})
				default:
					opt.lineLen = atoi(v)
				}
				break short
			default:
				return fail("invalid option -- '%c'", c)
			}
		}
	}
	if len(scripts) == 0 {
		if len(operands) == 0 {
			fmt.Fprint(inv.Stderr, usage)
			return 1
		}
		scripts = append(scripts, scriptPart{text: operands[0]})
		operands = operands[1:]
	}
	p := &parser{ere: opt.ere, sandbox: opt.sandbox}
	var src strings.Builder
	for n, s := range scripts {
		if n > 0 {
			src.WriteByte('\n')
		}
		ch := chunk{start: src.Len(), expr: n + 1}
		text := s.text
		if s.file != "" {
			var data []byte
			var err error
			if s.file == "-" {
				data, err = io.ReadAll(inv.Stdin)
			} else {
				data, err = inv.FS.ReadFile(inv.Abs(s.file))
			}
			if err != nil {
				fmt.Fprintf(inv.Stderr, "sed: couldn't open file %s: %s\n", s.file, command.Message(err))
				return 4
			}
			text = strings.TrimSuffix(string(data), "\n")
			ch.file = s.file
		}
		p.chunks = append(p.chunks, ch)
		src.WriteString(text)
	}
	p.src = src.String()
	if err := inv.Sys.Charge(int64(len(p.src))); err != nil {
		return 1
	}
	if err := p.parse(); err != nil {
		var u *unsupportedError
		if errors.As(err, &u) {
			return partial(u.feature)
		}
		fmt.Fprintf(inv.Stderr, "sed: %s\n", err)
		return 1
	}
	if err := p.resolve(); err != nil {
		fmt.Fprintf(inv.Stderr, "sed: %s\n", err)
		var le *labelError
		if errors.As(err, &le) {
			return 4
		}
		return 1
	}
	if p.quiet {
		opt.quiet = true
	}
	if len(operands) == 0 {
		if opt.inPlace {
			fmt.Fprintln(inv.Stderr, "sed: no input files")
			return 4
		}
		operands = []string{"-"}
	}
	m := &machine{inv: inv, opt: opt, prog: p.prog, delim: '\n', srcs: operands,
		wfiles: map[string]*strings.Builder{}, rfiles: map[string]*bufio.Reader{}}
	if opt.nulls {
		m.delim = 0
	}
	m.stdout = &output{w: inv.Stdout}
	m.out = m.stdout
	for _, c := range p.prog {
		name := ""
		if c.name == 'w' || c.name == 'W' {
			name = c.text
		} else if c.name == 's' {
			name = c.wfile
		}
		if name == "" || name == "/dev/stdout" || name == "/dev/stderr" {
			continue
		}
		if _, ok := m.wfiles[name]; !ok {
			m.wfiles[name] = &strings.Builder{}
			m.worder = append(m.worder, name)
			if err := inv.FS.WriteFile(inv.Abs(name), nil, 0o644); err != nil {
				fmt.Fprintf(inv.Stderr, "sed: couldn't open file %s: %s\n", name, command.Message(err))
				return 4
			}
		}
	}
	m.hsNL = true
	for _, c := range p.prog {
		for _, re := range []*posixre.Regexp{c.re, addrRe(c.a1), addrRe(c.a2)} {
			if re != nil {
				re.SetFuel(m.fuel)
			}
		}
	}
	err := m.run()
	for _, rel := range m.release {
		rel()
	}
	var stop errStop
	if errors.As(err, &stop) {
		return stop.status
	}
	for _, name := range m.worder {
		if err := inv.FS.WriteFile(inv.Abs(name), []byte(m.wfiles[name].String()), 0o644); err != nil {
			fmt.Fprintf(inv.Stderr, "sed: couldn't write %s: %s\n", name, command.Message(err))
			return 4
		}
	}
	if m.quit && m.exitCode != 0 {
		return m.exitCode
	}
	return m.status
}

func addrRe(a *address) *posixre.Regexp {
	if a == nil {
		return nil
	}
	return a.re
}

// atoi reads leading digits as C's atoi does (GNU sed parses -l so).
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9' && n < 1<<30; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
