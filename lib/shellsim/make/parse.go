package make

import (
	"fmt"
	"strings"
)

type flavor int

const (
	recursive flavor = iota
	simple
)

type variable struct {
	value    string
	flavor   flavor
	origin   string // "file", "command line", "environment", "automatic", "default"
	exported bool
}

type rule struct {
	targets   []string
	prereqs   []string
	orderOnly []string
	recipe    []recipeLine
	pattern   bool
	file      string
	line      int
	doubleCol bool
}

type recipeLine struct {
	text string
	file string
	line int
}

// makefile holds the parsed database.
type makefile struct {
	vars         map[string]*variable
	rules        map[string]*rule // explicit rules by target
	patterns     []*rule
	order        []string // explicit targets in definition order
	phony        map[string]bool
	defaultGoal  string
	silentAll    bool
	m            *maker
	includeDepth int
}

type parseError struct {
	file string
	line int
	msg  string
}

func (e *parseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg) }

// logicalLines joins backslash continuations: outside recipes the newline
// and surrounding whitespace become one space; recipe lines keep them.
type srcLine struct {
	text   string
	line   int
	recipe bool
}

func splitLines(src string) []srcLine {
	raw := strings.Split(src, "\n")
	var out []srcLine
	for i := 0; i < len(raw); i++ {
		start := i
		l := raw[i]
		isRecipe := strings.HasPrefix(l, "\t")
		for strings.HasSuffix(l, "\\") && !strings.HasSuffix(l, "\\\\") && i+1 < len(raw) {
			i++
			if isRecipe {
				next := raw[i]
				next = strings.TrimPrefix(next, "\t")
				l = l + "\n" + next
			} else {
				l = strings.TrimRight(l[:len(l)-1], " \t") + " " + strings.TrimLeft(raw[i], " \t")
			}
		}
		out = append(out, srcLine{text: l, line: start + 1, recipe: isRecipe})
	}
	return out
}

func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '#' {
			s = s[:i] + s[i+1:]
			continue
		}
		if s[i] == '#' {
			return s[:i]
		}
	}
	return s
}

// parse reads a makefile into mf.
func (mf *makefile) parse(src, file string) error {
	lines := splitLines(src)
	var cur []*rule // rules receiving recipe lines
	type cond struct{ active, seenTrue, parentActive bool }
	var conds []cond
	active := func() bool {
		for _, c := range conds {
			if !c.active {
				return false
			}
		}
		return true
	}
	for idx := 0; idx < len(lines); idx++ {
		sl := lines[idx]
		text := sl.text
		if sl.recipe && cur != nil {
			if !active() {
				continue
			}
			r := recipeLine{text: strings.TrimPrefix(text, "\t"), file: file, line: sl.line}
			for _, c := range cur {
				c.recipe = append(c.recipe, r)
			}
			continue
		}
		trimmed := strings.TrimSpace(stripComment(text))
		if trimmed == "" {
			continue
		}
		word, rest, _ := strings.Cut(trimmed, " ")
		rest = strings.TrimSpace(rest)
		// conditionals
		switch word {
		case "ifeq", "ifneq", "ifdef", "ifndef":
			parent := active()
			ok := false
			if parent {
				var err error
				ok, err = mf.evalCond(word, rest, file, sl.line)
				if err != nil {
					return err
				}
			}
			conds = append(conds, cond{active: ok, seenTrue: ok, parentActive: parent})
			continue
		case "else":
			if len(conds) == 0 {
				return &parseError{file, sl.line, "extraneous 'else'"}
			}
			c := &conds[len(conds)-1]
			if rest != "" {
				w2, r2, _ := strings.Cut(rest, " ")
				if c.seenTrue {
					c.active = false
					continue
				}
				ok, err := mf.evalCond(w2, strings.TrimSpace(r2), file, sl.line)
				if err != nil {
					return err
				}
				c.active, c.seenTrue = ok, ok
				continue
			}
			c.active = !c.seenTrue
			c.seenTrue = true
			continue
		case "endif":
			if len(conds) == 0 {
				return &parseError{file, sl.line, "extraneous 'endif'"}
			}
			conds = conds[:len(conds)-1]
			continue
		}
		if !active() {
			if word == "define" {
				for idx+1 < len(lines) && strings.TrimSpace(lines[idx+1].text) != "endef" {
					idx++
				}
				idx++
			}
			continue
		}
		switch word {
		case "include", "-include", "sinclude":
			cur = nil
			names := strings.Fields(mf.m.expand(rest, nil))
			for _, n := range names {
				data, err := mf.m.inv.FS.ReadFile(mf.m.abs(n))
				if err != nil {
					if word == "include" {
						return &parseError{file, sl.line, fmt.Sprintf("%s: No such file or directory", n)}
					}
					continue
				}
				mf.includeDepth++
				if mf.includeDepth > 32 {
					return &parseError{file, sl.line, "include nesting too deep"}
				}
				if err := mf.parse(string(data), n); err != nil {
					return err
				}
				mf.includeDepth--
			}
			continue
		case "define":
			name := rest
			op := "="
			for _, o := range []string{"::=", ":=", "+=", "?=", "="} {
				if strings.HasSuffix(name, o) {
					op = o
					name = strings.TrimSpace(strings.TrimSuffix(name, o))
					break
				}
			}
			var body []string
			for idx+1 < len(lines) {
				idx++
				if strings.TrimSpace(lines[idx].text) == "endef" {
					break
				}
				body = append(body, lines[idx].text)
			}
			mf.assign(name, op, strings.Join(body, "\n"), "file", false)
			cur = nil
			continue
		case "export", "unexport":
			if rest == "" {
				continue
			}
			if name, op, value, ok := splitAssign(rest); ok {
				mf.assign(name, op, value, "file", word == "export")
				continue
			}
			for _, n := range strings.Fields(mf.m.expand(rest, nil)) {
				v := mf.vars[n]
				if v == nil {
					v = &variable{origin: "file"}
					mf.vars[n] = v
				}
				v.exported = word == "export"
			}
			continue
		case "override":
			if name, op, value, ok := splitAssign(rest); ok {
				mf.assignForce(name, op, value)
				continue
			}
		case "vpath", "VPATH":
			continue
		}
		if name, op, value, ok := splitAssign(trimmed); ok && !isRuleLine(trimmed) {
			mf.assign(name, op, value, "file", false)
			cur = nil
			continue
		}
		// a rule
		r, err := mf.parseRule(text, file, sl.line)
		if err == errNoRule {
			cur = nil
			continue
		}
		if err != nil {
			return err
		}
		if r == nil {
			return &parseError{file, sl.line, "*** missing separator.  Stop."}
		}
		cur = r
	}
	if len(conds) > 0 {
		return &parseError{file, len(lines), "*** missing 'endif'.  Stop."}
	}
	return nil
}

func isRuleLine(s string) bool {
	// "a: b=c" is a target-specific variable; treat "x := y" as assignment
	i := strings.IndexByte(s, ':')
	j := strings.IndexByte(s, '=')
	if i < 0 || j < 0 {
		return false
	}
	if i < j && !(j == i+1) && !strings.HasPrefix(s[i:], "::=") {
		return true
	}
	return false
}

// splitAssign recognises NAME op VALUE.
func splitAssign(s string) (name, op, value string, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '=' {
			op = "="
			name = s[:i]
			if i > 0 {
				switch s[i-1] {
				case ':':
					op, name = ":=", s[:i-1]
					if i > 1 && s[i-2] == ':' {
						op, name = "::=", s[:i-2]
					}
				case '+':
					op, name = "+=", s[:i-1]
				case '?':
					op, name = "?=", s[:i-1]
				case '!':
					op, name = "!=", s[:i-1]
				}
			}
			name = strings.TrimSpace(name)
			if name == "" || strings.ContainsAny(name, " \t") && !strings.HasPrefix(name, "$") {
				return "", "", "", false
			}
			return name, op, strings.TrimLeft(s[i+1:], " \t"), true
		}
		if c == ':' && !(i+1 < len(s) && (s[i+1] == '=' || s[i+1] == ':')) {
			return "", "", "", false
		}
		if c == ';' {
			return "", "", "", false
		}
	}
	return "", "", "", false
}

func (mf *makefile) assign(name, op, value, origin string, export bool) {
	name = mf.m.expand(name, nil)
	if v, ok := mf.vars[name]; ok && (v.origin == "command line" || v.origin == "override") && origin == "file" {
		if export {
			v.exported = true
		}
		return
	}
	mf.assignForce2(name, op, value, origin, export)
}

func (mf *makefile) assignForce(name, op, value string) {
	mf.assignForce2(mf.m.expand(name, nil), op, value, "override", false)
}

func (mf *makefile) assignForce2(name, op, value, origin string, export bool) {
	old := mf.vars[name]
	switch op {
	case "=":
		mf.vars[name] = &variable{value: value, flavor: recursive, origin: origin}
	case ":=", "::=":
		mf.vars[name] = &variable{value: mf.m.expand(value, nil), flavor: simple, origin: origin}
	case "?=":
		if old != nil {
			return
		}
		mf.vars[name] = &variable{value: value, flavor: recursive, origin: origin}
	case "+=":
		if old == nil {
			mf.vars[name] = &variable{value: value, flavor: recursive, origin: origin}
		} else {
			add := value
			if old.flavor == simple {
				add = mf.m.expand(value, nil)
			}
			if old.value == "" {
				old.value = add
			} else {
				old.value += " " + add
			}
			if old.origin == "environment" || old.origin == "default" {
				old.origin = origin
			}
			if export {
				old.exported = true
			}
			return
		}
	case "!=":
		mf.vars[name] = &variable{value: mf.m.shell(mf.m.expand(value, nil)), flavor: simple, origin: origin}
	}
	if old != nil && old.exported {
		mf.vars[name].exported = true
	}
	if export {
		mf.vars[name].exported = true
	}
}

func (mf *makefile) evalCond(word, rest, file string, line int) (bool, error) {
	switch word {
	case "ifdef", "ifndef":
		name := strings.TrimSpace(mf.m.expand(rest, nil))
		v, ok := mf.vars[name]
		def := ok && v.value != ""
		return def == (word == "ifdef"), nil
	}
	a, b, ok := condArgs(rest)
	if !ok {
		return false, &parseError{file, line, "*** invalid syntax in conditional.  Stop."}
	}
	eq := mf.m.expand(a, nil) == mf.m.expand(b, nil)
	return eq == (word == "ifeq"), nil
}

func condArgs(s string) (string, string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		inner := s[1 : len(s)-1]
		depth := 0
		for i := 0; i < len(inner); i++ {
			switch inner[i] {
			case '(', '{':
				depth++
			case ')', '}':
				depth--
			case ',':
				if depth == 0 {
					return strings.TrimSpace(inner[:i]), strings.TrimSpace(inner[i+1:]), true
				}
			}
		}
		return "", "", false
	}
	// "a" "b" or 'a' 'b'
	parts := []string{}
	for len(s) > 0 {
		q := s[0]
		if q != '"' && q != '\'' {
			return "", "", false
		}
		j := strings.IndexByte(s[1:], q)
		if j < 0 {
			return "", "", false
		}
		parts = append(parts, s[1:j+1])
		s = strings.TrimSpace(s[j+2:])
	}
	if len(parts) != 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// parseRule parses "targets: prereqs [| order-only] [; recipe]".
func (mf *makefile) parseRule(text, file string, line int) ([]*rule, error) {
	body := stripComment(text)
	recipe := ""
	if i := indexTopLevel(body, ';'); i >= 0 {
		recipe = strings.TrimLeft(body[i+1:], " \t")
		body = body[:i]
	}
	i := indexColon(body)
	if i < 0 {
		return nil, nil
	}
	double := strings.HasPrefix(body[i:], "::")
	targetsText := body[:i]
	prereqText := body[i+1:]
	if double {
		prereqText = body[i+2:]
	}
	targets := strings.Fields(mf.m.expand(targetsText, nil))
	// target-specific variable "t: VAR = value" is accepted as global (partial)
	if name, op, value, ok := splitAssign(strings.TrimSpace(prereqText)); ok {
		mf.m.inv.Sys.Partial("make target-specific variables")
		mf.assign(name, op, value, "file", false)
		return nil, errNoRule
	}
	// static pattern rule: targets: target-pattern: prereq-patterns
	if j := indexColon(prereqText); j >= 0 {
		tpat := strings.TrimSpace(mf.m.expand(prereqText[:j], nil))
		ppats := strings.Fields(mf.m.expand(prereqText[j+1:], nil))
		var rules []*rule
		for _, t := range targets {
			stem, ok := matchPattern(tpat, t)
			if !ok {
				return nil, &parseError{file, line, fmt.Sprintf("target '%s' doesn't match the target pattern", t)}
			}
			var pre []string
			for _, p := range ppats {
				pre = append(pre, strings.ReplaceAll(p, "%", stem))
			}
			r := &rule{targets: []string{t}, prereqs: pre, file: file, line: line}
			if recipe != "" {
				r.recipe = append(r.recipe, recipeLine{text: recipe, file: file, line: line})
			}
			mf.addRule(r)
			rules = append(rules, mf.rules[t])
		}
		return rules, nil
	}
	normal, order, _ := strings.Cut(prereqText, "|")
	r := &rule{targets: targets, prereqs: strings.Fields(mf.m.expand(normal, nil)), orderOnly: strings.Fields(mf.m.expand(order, nil)), file: file, line: line, doubleCol: double}
	if recipe != "" {
		r.recipe = append(r.recipe, recipeLine{text: recipe, file: file, line: line})
	}
	if len(targets) == 0 {
		return []*rule{r}, nil
	}
	if strings.Contains(targets[0], "%") {
		r.pattern = true
		mf.patterns = append(mf.patterns, r)
		return []*rule{r}, nil
	}
	var out []*rule
	for _, t := range targets {
		switch t {
		case ".PHONY":
			for _, p := range r.prereqs {
				mf.phony[p] = true
			}
			continue
		case ".SILENT":
			if len(r.prereqs) == 0 {
				mf.silentAll = true
			}
			continue
		case ".DEFAULT_GOAL":
			continue
		case ".SUFFIXES", ".PRECIOUS", ".INTERMEDIATE", ".SECONDARY", ".DELETE_ON_ERROR", ".NOTPARALLEL", ".EXPORT_ALL_VARIABLES", ".ONESHELL", ".POSIX", ".IGNORE", ".LOW_RESOLUTION_TIME", ".SECONDEXPANSION", ".DEFAULT":
			if t == ".ONESHELL" || t == ".SECONDEXPANSION" || t == ".DEFAULT" {
				mf.m.inv.Sys.Partial("make " + t)
			}
			if t == ".EXPORT_ALL_VARIABLES" {
				mf.m.exportAll = true
			}
			continue
		}
		nr := &rule{targets: []string{t}, prereqs: r.prereqs, orderOnly: r.orderOnly, recipe: r.recipe, file: file, line: line}
		mf.addRule(nr)
		out = append(out, mf.rules[t])
	}
	// recipe lines that follow go to every target of this rule
	if out == nil {
		out = []*rule{}
	}
	return out, nil
}

var errNoRule = fmt.Errorf("no rule")

func (mf *makefile) addRule(r *rule) {
	t := r.targets[0]
	if mf.defaultGoal == "" && !strings.HasPrefix(t, ".") {
		mf.defaultGoal = t
	}
	old, ok := mf.rules[t]
	if !ok {
		mf.rules[t] = r
		mf.order = append(mf.order, t)
		return
	}
	old.prereqs = append(old.prereqs, r.prereqs...)
	old.orderOnly = append(old.orderOnly, r.orderOnly...)
	if len(r.recipe) > 0 {
		if len(old.recipe) > 0 {
			fmt.Fprintf(mf.m.inv.Stderr, "%s:%d: warning: overriding recipe for target '%s'\n%s:%d: warning: ignoring old recipe for target '%s'\n", r.file, r.line, t, old.file, old.line, t)
		}
		old.recipe = r.recipe
		old.file, old.line = r.file, r.line
	}
}

func indexTopLevel(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		default:
			if s[i] == c && depth == 0 {
				return i
			}
		}
	}
	return -1
}

// indexColon finds the rule colon outside $(...) and not part of ":=".
func indexColon(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ':':
			if depth == 0 && !(i+1 < len(s) && s[i+1] == '=') {
				return i
			}
		}
	}
	return -1
}

func matchPattern(pat, s string) (string, bool) {
	i := strings.IndexByte(pat, '%')
	if i < 0 {
		return "", pat == s
	}
	pre, suf := pat[:i], pat[i+1:]
	if len(s) < len(pre)+len(suf) || !strings.HasPrefix(s, pre) || !strings.HasSuffix(s, suf) {
		return "", false
	}
	return s[len(pre) : len(s)-len(suf)], true
}
