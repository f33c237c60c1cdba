package make

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// make - maintain program dependencies
//
//	make [-f FILE] [-C DIR] [-n] [-s] [-k] [-i] [-B] [-q] [-j N] [-e] [VAR=value]... [TARGET]...

// Commands returns make, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{{Name: "make", Trust: command.Partial, Run: Main}}
}

type maker struct {
	inv       *command.Invocation
	dir       string
	mf        *makefile
	dryRun    bool
	silent    bool
	keepGoing bool
	ignoreErr bool
	always    bool
	question  bool
	level     int
	built     map[string]int // 0 unknown, 1 building, 2 done-ok, 3 failed
	updated   map[string]bool
	ranAny    bool
	failed    bool
	exportAll bool
	depth     int
	steps     int
	cmdVars   []string
}

const maxExpandDepth = 64
const maxExpandLen = 4 << 20

type makeError struct{ msg string }

func (e *makeError) Error() string { return e.msg }

// Main runs make.
func Main(inv *command.Invocation) (status int) {
	m := &maker{inv: inv, dir: inv.Dir, built: map[string]int{}, updated: map[string]bool{}}
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case failPanic:
				fmt.Fprintf(inv.Stderr, "%s: %s\n", m.prefix(), e.msg)
				status = 2
			case error:
				if errors.Is(e, command.ErrStopped) {
					status = 2
					return
				}
				panic(r)
			default:
				panic(r)
			}
		}
	}()
	if lv, ok := inv.Env.Get("MAKELEVEL"); ok {
		m.level, _ = strconv.Atoi(lv)
	}
	var files, goals, assigns, evals []string
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if i+1 >= len(args) {
				fmt.Fprintf(inv.Stderr, "make: option requires an argument -- '%s'\nUsage: make [options] [target] ...\n", strings.TrimLeft(a, "-"))
				return "", false
			}
			i++
			return args[i], true
		}
		switch {
		case a == "-f" || a == "--file" || a == "--makefile":
			v, ok := next()
			if !ok {
				return 2
			}
			files = append(files, v)
		case strings.HasPrefix(a, "-f") && len(a) > 2:
			files = append(files, a[2:])
		case strings.HasPrefix(a, "--file="):
			files = append(files, a[7:])
		case a == "-E" || a == "--eval":
			v, ok := next()
			if !ok {
				return 2
			}
			evals = append(evals, v)
		case strings.HasPrefix(a, "-E") || strings.HasPrefix(a, "--eval="):
			evals = append(evals, strings.TrimPrefix(strings.TrimPrefix(a, "--eval="), "-E"))
		case a == "-C" || a == "--directory":
			v, ok := next()
			if !ok {
				return 2
			}
			m.dir = command.Join(m.dir, v)
		case strings.HasPrefix(a, "-C") && len(a) > 2:
			m.dir = command.Join(m.dir, a[2:])
		case strings.HasPrefix(a, "--directory="):
			m.dir = command.Join(m.dir, a[12:])
		case a == "-j" || a == "--jobs":
			if i+1 < len(args) {
				if _, err := strconv.Atoi(args[i+1]); err == nil {
					i++
				}
			}
		case strings.HasPrefix(a, "-j") || strings.HasPrefix(a, "--jobs="):
		case a == "-l" || a == "--load-average":
			if i+1 < len(args) {
				i++
			}
		case a == "--version" || a == "-v":
			fmt.Fprintln(inv.Stdout, "GNU Make 4.4.1\nBuilt for x86_64-pc-linux-gnu\nCopyright (C) 1988-2023 Free Software Foundation, Inc.\nLicense GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>\nThis is free software: you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.")
			return 0
		case a == "-h" || a == "--help":
			fmt.Fprintln(inv.Stdout, "Usage: make [options] [target] ...")
			return 0
		case a == "--dry-run" || a == "--just-print" || a == "--recon":
			m.dryRun = true
		case a == "--silent" || a == "--quiet":
			m.silent = true
		case a == "--keep-going":
			m.keepGoing = true
		case a == "--ignore-errors":
			m.ignoreErr = true
		case a == "--always-make":
			m.always = true
		case a == "--question":
			m.question = true
		case a == "--no-print-directory" || a == "-w" || a == "--print-directory" || a == "-r" || a == "--no-builtin-rules" || a == "-R" || a == "--no-builtin-variables" || a == "-e" || a == "--environment-overrides" || a == "-S" || a == "--no-keep-going" || a == "--warn-undefined-variables":
		case strings.HasPrefix(a, "--"):
			fmt.Fprintf(inv.Stderr, "make: unrecognized option '%s'\nUsage: make [options] [target] ...\n", a)
			return 2
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, c := range a[1:] {
				switch c {
				case 'n':
					m.dryRun = true
				case 's':
					m.silent = true
				case 'k':
					m.keepGoing = true
				case 'i':
					m.ignoreErr = true
				case 'B':
					m.always = true
				case 'q':
					m.question = true
				case 'r', 'R', 'e', 'w', 'S':
				default:
					fmt.Fprintf(inv.Stderr, "make: invalid option -- '%c'\nUsage: make [options] [target] ...\n", c)
					return 2
				}
			}
		case strings.Contains(a, "="):
			assigns = append(assigns, a)
		default:
			goals = append(goals, a)
		}
	}
	if m.dir != inv.Dir {
		if fi, err := inv.FS.Stat(m.dir); err != nil || !fi.IsDir() {
			fmt.Fprintf(inv.Stderr, "make: *** %s: No such file or directory.  Stop.\n", m.dir)
			return 2
		}
	}
	m.mf = &makefile{vars: map[string]*variable{}, rules: map[string]*rule{}, phony: map[string]bool{}, m: m}
	for _, kv := range inv.Env.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		m.mf.vars[k] = &variable{value: v, flavor: recursive, origin: "environment", exported: true}
	}
	m.mf.vars["MAKE"] = &variable{value: "make", origin: "default"}
	m.mf.vars["CURDIR"] = &variable{value: m.dir, origin: "file", flavor: simple}
	m.mf.vars["SHELL"] = &variable{value: "/bin/sh", origin: "default"}
	m.mf.vars["MAKELEVEL"] = &variable{value: strconv.Itoa(m.level), origin: "default"}
	m.mf.vars["CC"] = &variable{value: "cc", origin: "default"}
	m.mf.vars["RM"] = &variable{value: "rm -f", origin: "default"}
	m.mf.vars[".DEFAULT_GOAL"] = &variable{value: "", origin: "default"}
	for _, a := range assigns {
		name, op, value, ok := splitAssign(a)
		if !ok {
			continue
		}
		m.mf.assignForce2(name, op, value, "command line", false)
		m.mf.vars[name].exported = true
		m.cmdVars = append(m.cmdVars, a)
	}
	for _, e := range evals {
		// --eval: makefile text read after the command line's variables
		// and before the makefiles, as GNU make does
		if e == "" {
			fmt.Fprintln(inv.Stderr, "make: the '-E' option requires a non-empty string argument\nUsage: make [options] [target] ...")
			return 2
		}
		if err := m.charge(int64(len(e) / 16)); err != nil {
			return 2
		}
		if err := m.mf.parse(e, "--eval"); err != nil {
			var pe *parseError
			if errors.As(err, &pe) {
				msg := pe.msg
				if !strings.HasPrefix(msg, "***") {
					msg = "*** " + msg + ".  Stop."
				}
				fmt.Fprintf(inv.Stderr, "make: %s\n", msg)
			} else if !errors.Is(err, command.ErrStopped) {
				fmt.Fprintf(inv.Stderr, "make: *** %v\n", err)
			}
			return 2
		}
	}
	if m.level > 0 || m.dir != inv.Dir {
		m.enterLeave("Entering")
		defer m.enterLeave("Leaving")
	}
	if len(files) == 0 {
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if _, err := inv.FS.Stat(m.abs(n)); err == nil {
				files = []string{n}
				break
			}
		}
	}
	if len(files) == 0 && len(goals) == 0 {
		fmt.Fprintln(inv.Stderr, "make: *** No targets specified and no makefile found.  Stop.")
		return 2
	}
	for _, f := range files {
		data, err := inv.FS.ReadFile(m.abs(f))
		if err != nil {
			fmt.Fprintf(inv.Stderr, "make: %s: %s\nmake: *** No rule to make target '%s'.  Stop.\n", f, command.Message(err), f)
			return 2
		}
		if len(data) > 1<<20 {
			fmt.Fprintf(inv.Stderr, "make: %s: makefile larger than 1 MiB\n", f)
			return 2
		}
		if err := m.charge(int64(len(data) / 16)); err != nil {
			return 2
		}
		m.mf.vars["MAKEFILE_LIST"] = &variable{value: strings.TrimSpace(m.varValue("MAKEFILE_LIST") + " " + f), origin: "file"}
		if err := m.mf.parse(string(data), f); err != nil {
			var pe *parseError
			if errors.As(err, &pe) {
				msg := pe.msg
				if !strings.HasPrefix(msg, "***") {
					msg = "*** " + msg + ".  Stop."
				}
				fmt.Fprintf(inv.Stderr, "%s:%d: %s\n", pe.file, pe.line, msg)
			} else if !errors.Is(err, command.ErrStopped) {
				fmt.Fprintf(inv.Stderr, "make: *** %v\n", err)
			}
			return 2
		}
	}
	if len(goals) == 0 {
		g := m.varValue(".DEFAULT_GOAL")
		if g == "" {
			g = m.mf.defaultGoal
		}
		if g == "" {
			fmt.Fprintln(inv.Stderr, "make: *** No targets.  Stop.")
			return 2
		}
		goals = []string{g}
	}
	status = 0
	for _, g := range goals {
		m.ranAny = false
		err := m.build(g, "", 0)
		if err != nil {
			var me *makeError
			if errors.As(err, &me) {
				fmt.Fprintln(inv.Stderr, me.msg)
			}
			if errors.Is(err, command.ErrStopped) {
				return 2
			}
			status = 2
			if !m.keepGoing {
				break
			}
			continue
		}
		if m.question {
			if m.ranAny {
				status = 1
			}
			continue
		}
		if !m.ranAny && m.built[g] == 2 && !m.failed {
			r := m.mf.rules[g]
			if r != nil && len(r.recipe) > 0 && !m.mf.phony[g] || r == nil && !m.mf.phony[g] {
				if m.updated[g] {
					continue
				}
				fmt.Fprintf(inv.Stdout, "make: '%s' is up to date.\n", g)
			} else if !m.updated[g] {
				fmt.Fprintf(inv.Stdout, "make: Nothing to be done for '%s'.\n", g)
			}
		}
	}
	if m.failed && status == 0 {
		status = 2
	}
	return status
}

func (m *maker) enterLeave(what string) {
	prefix := "make"
	if m.level > 0 {
		prefix = fmt.Sprintf("make[%d]", m.level)
	}
	fmt.Fprintf(m.inv.Stdout, "%s: %s directory '%s'\n", prefix, what, m.dir)
}

func (m *maker) prefix() string {
	if m.level > 0 {
		return fmt.Sprintf("make[%d]", m.level)
	}
	return "make"
}

func (m *maker) abs(p string) string { return command.Join(m.dir, p) }

func (m *maker) charge(n int64) error { return m.inv.Sys.Charge(n + 1) }

func (m *maker) mtime(p string) (time.Time, bool) {
	fi, err := m.inv.FS.Stat(m.abs(p))
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime, true
}

func (m *maker) varValue(name string) string {
	v, ok := m.mf.vars[name]
	if !ok {
		return ""
	}
	if v.flavor == simple {
		return v.value
	}
	return m.expand(v.value, nil)
}

// findPattern returns a pattern rule (with stem) that can build t.
func (m *maker) findPattern(t string, depth int) (*rule, string) {
	var best *rule
	bestStem := ""
	for _, r := range m.mf.patterns {
		for _, tp := range r.targets {
			stem, ok := matchPattern(tp, t)
			if !ok || len(r.recipe) == 0 {
				continue
			}
			usable := true
			for _, p := range r.prereqs {
				pp := strings.ReplaceAll(p, "%", stem)
				if _, exists := m.mtime(pp); exists {
					continue
				}
				if _, ok := m.mf.rules[pp]; ok {
					continue
				}
				if depth < 4 {
					if pr, _ := m.findPattern(pp, depth+1); pr != nil {
						continue
					}
				}
				usable = false
				break
			}
			if usable && (best == nil || len(stem) < len(bestStem)) {
				best, bestStem = r, stem
			}
		}
	}
	return best, bestStem
}

// build makes target t; parent is the target that needs it (for messages).
func (m *maker) build(t, parent string, depth int) error {
	if err := m.charge(1); err != nil {
		return err
	}
	switch m.built[t] {
	case 1:
		fmt.Fprintf(m.inv.Stderr, "%s: Circular %s <- %s dependency dropped.\n", m.prefix(), parent, t)
		return nil
	case 2:
		return nil
	case 3:
		return &makeError{""}
	}
	if depth > 256 {
		return &makeError{fmt.Sprintf("%s: *** dependency chain too deep.  Stop.", m.prefix())}
	}
	m.built[t] = 1
	r := m.mf.rules[t]
	stem := ""
	var prereqs, order []string
	var recipe []recipeLine
	var rfile string
	var rline int
	if r != nil {
		prereqs, order, recipe, rfile, rline = r.prereqs, r.orderOnly, r.recipe, r.file, r.line
	}
	if len(recipe) == 0 && !m.mf.phony[t] {
		if pr, s := m.findPattern(t, 0); pr != nil {
			stem = s
			for _, p := range pr.prereqs {
				prereqs = append(prereqs, strings.ReplaceAll(p, "%", stem))
			}
			for _, p := range pr.orderOnly {
				order = append(order, strings.ReplaceAll(p, "%", stem))
			}
			recipe, rfile, rline = pr.recipe, pr.file, pr.line
		}
	}
	tTime, tExists := m.mtime(t)
	if r == nil && len(recipe) == 0 {
		if tExists {
			m.built[t] = 2
			return nil
		}
		m.built[t] = 3
		if parent == "" {
			return &makeError{fmt.Sprintf("%s: *** No rule to make target '%s'.  Stop.", m.prefix(), t)}
		}
		return &makeError{fmt.Sprintf("%s: *** No rule to make target '%s', needed by '%s'.  Stop.", m.prefix(), t, parent)}
	}
	var firstErr error
	for _, p := range append(append([]string{}, prereqs...), order...) {
		if err := m.build(p, t, depth+1); err != nil {
			if errors.Is(err, command.ErrStopped) {
				return err
			}
			if firstErr == nil {
				firstErr = err
			}
			if !m.keepGoing {
				m.built[t] = 3
				return err
			}
		}
	}
	if firstErr != nil {
		m.built[t] = 3
		var me *makeError
		if errors.As(firstErr, &me) && me.msg != "" {
			fmt.Fprintln(m.inv.Stderr, me.msg)
		}
		if m.keepGoing {
			fmt.Fprintf(m.inv.Stderr, "%s: Target '%s' not remade because of errors.\n", m.prefix(), t)
		}
		return &makeError{""}
	}
	// out of date?
	need := !tExists || m.mf.phony[t] || m.always
	var newer []string
	for _, p := range prereqs {
		pt, ok := m.mtime(p)
		if m.mf.phony[p] || !ok || pt.After(tTime) || m.updated[p] {
			newer = append(newer, p)
			if !m.mf.phony[p] || true {
				need = true
			}
		}
	}
	if !tExists {
		newer = dedup(prereqs)
	}
	if !need || len(recipe) == 0 {
		m.built[t] = 2
		if need && len(recipe) == 0 && !tExists && !m.mf.phony[t] {
			m.updated[t] = true
		}
		return nil
	}
	if m.question {
		m.ranAny = true
		m.built[t] = 2
		return nil
	}
	auto := map[string]string{
		"@": t,
		"<": first(prereqs),
		"^": strings.Join(dedup(prereqs), " "),
		"+": strings.Join(prereqs, " "),
		"?": strings.Join(dedupKeep(newer), " "),
		"*": stem,
		"|": strings.Join(dedup(order), " "),
	}
	if stem == "" {
		if i := strings.LastIndexByte(t, '.'); i > 0 {
			auto["*"] = t[:i]
		}
	}
	for _, rl := range recipe {
		if err := m.runLine(rl, t, auto, rfile, rline); err != nil {
			if errors.Is(err, command.ErrStopped) {
				return err
			}
			m.built[t] = 3
			m.failed = true
			return err
		}
	}
	m.built[t] = 2
	m.updated[t] = true
	return nil
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func dedup(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func dedupKeep(s []string) []string { return dedup(s) }

func (m *maker) runLine(rl recipeLine, target string, auto map[string]string, file string, line int) error {
	text := m.expand(rl.text, auto)
	for _, cmdText := range splitRecipe(text) {
		silent, ignore, force := m.silent || m.mf.silentAll, m.ignoreErr, false
		for len(cmdText) > 0 && strings.IndexByte("@-+ \t", cmdText[0]) >= 0 {
			switch cmdText[0] {
			case '@':
				silent = true
			case '-':
				ignore = true
			case '+':
				force = true
			}
			cmdText = cmdText[1:]
		}
		if cmdText == "" {
			continue
		}
		m.ranAny = true
		recursive := strings.Contains(rl.text, "$(MAKE)") || strings.Contains(rl.text, "${MAKE}")
		if m.dryRun && !force && !recursive {
			fmt.Fprintln(m.inv.Stdout, cmdText)
			continue
		}
		if !silent || (m.dryRun && recursive) {
			fmt.Fprintln(m.inv.Stdout, cmdText)
		}
		env := m.childEnv(recursive)
		if m.dryRun && recursive {
			cmdText = strings.Replace(cmdText, "make", "make -n", 1)
		}
		st, err := m.inv.Sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", cmdText}, Env: env, Dir: m.dir,
			Stdin: bytes.NewReader(nil), Stdout: m.inv.Stdout, Stderr: m.inv.Stderr})
		if err != nil && errors.Is(err, command.ErrStopped) {
			return err
		}
		if st != 0 {
			where := fmt.Sprintf("%s:%d: %s", rl.file, rl.line, target)
			if ignore {
				fmt.Fprintf(m.inv.Stderr, "%s: [%s] Error %d (ignored)\n", m.prefix(), where, st)
				continue
			}
			fmt.Fprintf(m.inv.Stderr, "%s: *** [%s] Error %d\n", m.prefix(), where, st)
			return &makeError{""}
		}
	}
	return nil
}

// splitRecipe: a recipe line is one shell command (backslash-newlines are
// passed through to the shell, which joins them).
func splitRecipe(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && (i == 0 || s[i-1] != '\\') {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func (m *maker) childEnv(recursive bool) []string {
	env := map[string]string{}
	for _, kv := range m.inv.Env.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	for name, v := range m.mf.vars {
		if v.exported || m.exportAll && v.origin == "file" {
			if v.flavor == simple {
				env[name] = v.value
			} else {
				env[name] = m.expand(v.value, nil)
			}
		}
	}
	env["MAKELEVEL"] = strconv.Itoa(m.level + 1)
	if len(m.cmdVars) > 0 {
		env["MAKEFLAGS"] = strings.Join(m.cmdVars, " ")
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func (m *maker) shell(cmd string) string {
	var out bytes.Buffer
	st, err := m.inv.Sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", cmd}, Dir: m.dir, Env: m.childEnv(false),
		Stdin: bytes.NewReader(nil), Stdout: &out, Stderr: m.inv.Stderr})
	_ = st
	_ = err
	s := strings.TrimRight(out.String(), "\n")
	return strings.ReplaceAll(s, "\n", " ")
}

// expand performs variable and function expansion.
func (m *maker) expand(s string, auto map[string]string) string {
	m.depth++
	defer func() { m.depth-- }()
	if m.depth > maxExpandDepth {
		m.fail("*** Recursive variable references itself (eventually).  Stop.")
	}
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		n := s[i]
		switch n {
		case '$':
			b.WriteByte('$')
		case '(', '{':
			close := byte(')')
			if n == '{' {
				close = '}'
			}
			j := matchClose(s, i+1, n, close)
			if j < 0 {
				m.fail("*** unterminated variable reference.  Stop.")
			}
			b.WriteString(m.ref(s[i+1:j], auto))
			i = j
		default:
			b.WriteString(m.ref(string(n), auto))
		}
		if b.Len() > maxExpandLen {
			m.fail("*** expansion too large.  Stop.")
		}
	}
	m.steps++
	if m.steps%64 == 0 {
		if err := m.charge(64); err != nil {
			panic(err)
		}
	}
	return b.String()
}

type failPanic struct{ msg string }

func (m *maker) fail(msg string) { panic(failPanic{msg}) }

func matchClose(s string, i int, open, close byte) int {
	depth := 1
	for ; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// ref expands the inside of $(...).
func (m *maker) ref(in string, auto map[string]string) string {
	// function call?
	if sp := strings.IndexAny(in, " \t"); sp > 0 {
		if f, ok := functions[in[:sp]]; ok {
			return f(m, strings.TrimLeft(in[sp+1:], " \t"), auto)
		}
	}
	name := m.expand(in, auto)
	// substitution reference $(VAR:a=b)
	if i := strings.IndexByte(name, ':'); i > 0 {
		if from, to, ok := strings.Cut(name[i+1:], "="); ok {
			val := m.ref(name[:i], auto)
			if !strings.Contains(from, "%") {
				from, to = "%"+from, "%"+to
			}
			return patsubst(from, to, val)
		}
	}
	if auto != nil {
		if len(name) == 2 && (name[1] == 'D' || name[1] == 'F') {
			if v, ok := auto[name[:1]]; ok {
				var parts []string
				for _, w := range strings.Fields(v) {
					if name[1] == 'D' {
						parts = append(parts, path.Dir(w))
					} else {
						parts = append(parts, path.Base(w))
					}
				}
				return strings.Join(parts, " ")
			}
		}
		if v, ok := auto[name]; ok {
			return v
		}
	}
	v, ok := m.mf.vars[name]
	if !ok {
		return ""
	}
	if v.flavor == simple {
		return v.value
	}
	return m.expand(v.value, auto)
}

func patsubst(pat, repl, text string) string {
	var out []string
	for _, w := range strings.Fields(text) {
		if stem, ok := matchPattern(pat, w); ok {
			out = append(out, strings.Replace(repl, "%", stem, 1))
		} else {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

var _ = fs.ErrNotExist
