// Package rg is ShellSim's ripgrep: recursive regex search that honours
// .gitignore and skips hidden and binary files, with rg's common flags and
// output format. Files are searched in sorted path order (ripgrep's own
// order is nondeterministic unless --sort path is given).
package rg

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Commands returns rg, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{{Name: "rg", Trust: command.Partial, Run: Main}}
}

type opts struct {
	ignoreCase, smartCase, lineNum, noLineNum, filesWith, filesWithout, count, invert, word, fixed bool
	onlyMatch, quiet, hidden, noIgnore, files, withName, noName, fixedLines, heading               bool
	after, before, maxCount                                                                        int
	patterns, globs, types, typesNot                                                               []string
}

var typeExts = map[string][]string{
	"py": {"*.py", "*.pyi"}, "js": {"*.js", "*.jsx", "*.mjs", "*.cjs"}, "ts": {"*.ts", "*.tsx"}, "go": {"*.go"},
	"rust": {"*.rs"}, "c": {"*.c", "*.h"}, "cpp": {"*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.h"}, "java": {"*.java"},
	"md": {"*.md", "*.markdown"}, "markdown": {"*.md", "*.markdown"}, "json": {"*.json"}, "yaml": {"*.yaml", "*.yml"},
	"toml": {"*.toml"}, "sh": {"*.sh", "*.bash"}, "html": {"*.html", "*.htm"}, "css": {"*.css"}, "txt": {"*.txt"},
	"rb": {"*.rb"}, "php": {"*.php"}, "sql": {"*.sql"}, "xml": {"*.xml"}, "make": {"Makefile", "*.mk", "makefile", "GNUmakefile"},
}

// Main runs rg.
func Main(inv *command.Invocation) int {
	o := &opts{maxCount: -1}
	var paths []string
	args := inv.Args[1:]
	patternSet := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, bool) {
			if k := strings.IndexByte(a, '='); strings.HasPrefix(a, "--") && k > 0 {
				return a[k+1:], true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			fmt.Fprintf(inv.Stderr, "error: a value is required for '%s' but none was supplied\n", a)
			return "", false
		}
		name := a
		if k := strings.IndexByte(a, '='); strings.HasPrefix(a, "--") && k > 0 {
			name = a[:k]
		}
		switch name {
		case "-i", "--ignore-case":
			o.ignoreCase = true
		case "-S", "--smart-case":
			o.smartCase = true
		case "-s", "--case-sensitive":
			o.ignoreCase, o.smartCase = false, false
		case "-n", "--line-number":
			o.lineNum = true
		case "-N", "--no-line-number":
			o.noLineNum = true
		case "-l", "--files-with-matches":
			o.filesWith = true
		case "--files-without-match":
			o.filesWithout = true
		case "-c", "--count":
			o.count = true
		case "-v", "--invert-match":
			o.invert = true
		case "-w", "--word-regexp":
			o.word = true
		case "-x", "--line-regexp":
			o.fixedLines = true
		case "-F", "--fixed-strings":
			o.fixed = true
		case "-o", "--only-matching":
			o.onlyMatch = true
		case "-q", "--quiet":
			o.quiet = true
		case "--hidden", "-.":
			o.hidden = true
		case "--no-ignore", "-u":
			o.noIgnore = true
		case "-uu":
			o.noIgnore, o.hidden = true, true
		case "--files":
			o.files = true
		case "-H", "--with-filename":
			o.withName = true
		case "-I", "--no-filename":
			o.noName = true
		case "--heading":
			o.heading = true
		case "--no-heading", "--color", "--no-messages", "--sort", "--sort-files", "--no-config", "--color=never", "--trim":
			if name == "--sort" && !strings.Contains(a, "=") && i+1 < len(args) {
				i++
			}
		case "-e", "--regexp":
			v, ok := val()
			if !ok {
				return 2
			}
			o.patterns = append(o.patterns, v)
			patternSet = true
		case "-g", "--glob", "--iglob":
			v, ok := val()
			if !ok {
				return 2
			}
			o.globs = append(o.globs, v)
		case "-t", "--type":
			v, ok := val()
			if !ok {
				return 2
			}
			if _, known := typeExts[v]; !known {
				fmt.Fprintf(inv.Stderr, "rg: error parsing flag -t: unrecognized file type: %s\n", v)
				return 2
			}
			o.types = append(o.types, v)
		case "-T", "--type-not":
			v, ok := val()
			if !ok {
				return 2
			}
			o.typesNot = append(o.typesNot, v)
		case "-A", "--after-context", "-B", "--before-context", "-C", "--context", "-m", "--max-count":
			v, ok := val()
			if !ok {
				return 2
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				fmt.Fprintf(inv.Stderr, "rg: error parsing flag %s: invalid number\n", name)
				return 2
			}
			switch name {
			case "-A", "--after-context":
				o.after = n
			case "-B", "--before-context":
				o.before = n
			case "-C", "--context":
				o.after, o.before = n, n
			default:
				o.maxCount = n
			}
		case "--":
			rest := args[i+1:]
			if !patternSet && len(rest) > 0 {
				o.patterns = append(o.patterns, rest[0])
				patternSet = true
				rest = rest[1:]
			}
			paths = append(paths, rest...)
			i = len(args)
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				if len(a) > 2 && a[1] != '-' {
					// bundled short flags such as -in or -A3
					expanded := []string{}
					for k := 1; k < len(a); k++ {
						c := a[k]
						if strings.IndexByte("ABCmegtT", c) >= 0 {
							expanded = append(expanded, "-"+string(c))
							if k+1 < len(a) {
								expanded = append(expanded, a[k+1:])
							}
							break
						}
						expanded = append(expanded, "-"+string(c))
					}
					args = append(append(append([]string{}, args[:i]...), expanded...), args[i+1:]...)
					i--
					continue
				}
				inv.Sys.Partial("rg " + name)
				fmt.Fprintf(inv.Stderr, "rg: unrecognized flag %s\n", name)
				return 2
			}
			if !patternSet && !o.files {
				o.patterns = append(o.patterns, a)
				patternSet = true
			} else {
				paths = append(paths, a)
			}
		}
	}
	if !patternSet && !o.files {
		fmt.Fprintln(inv.Stderr, "rg: ripgrep requires at least one pattern to execute a search")
		return 2
	}
	var re *regexp.Regexp
	if !o.files {
		var parts []string
		for _, p := range o.patterns {
			if o.fixed {
				p = regexp.QuoteMeta(p)
			}
			parts = append(parts, p)
		}
		expr := strings.Join(parts, "|")
		if len(parts) > 1 {
			expr = "(?:" + expr + ")"
		}
		if o.word {
			expr = `\b(?:` + expr + `)\b`
		}
		if o.fixedLines {
			expr = `^(?:` + expr + `)$`
		}
		ci := o.ignoreCase
		if o.smartCase && strings.ToLower(strings.Join(o.patterns, "")) == strings.Join(o.patterns, "") {
			ci = true
		}
		if ci {
			expr = "(?i)" + expr
		}
		var err error
		re, err = regexp.Compile(expr)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "rg: regex parse error:\n    %s\nerror: %v\n", strings.Join(o.patterns, "|"), err)
			return 2
		}
	}
	explicit := len(paths) > 0
	stdinMode := false
	if !explicit {
		paths = []string{"."}
	}
	if len(paths) == 1 && paths[0] == "-" {
		stdinMode = true
	}
	var files []string
	for _, p := range paths {
		if p == "-" {
			continue
		}
		fi, err := inv.FS.Stat(inv.Abs(p))
		if err != nil {
			fmt.Fprintf(inv.Stderr, "rg: %s: IO error for operation on %s: No such file or directory (os error 2)\n", p, p)
			continue
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		files = append(files, walk(inv, o, p)...)
	}
	w := bufio.NewWriter(inv.Stdout)
	defer w.Flush()
	if o.files {
		for _, f := range files {
			fmt.Fprintln(w, f)
		}
		if len(files) == 0 {
			return 1
		}
		return 0
	}
	showName := o.withName || (!o.noName && (len(files) > 1 || (explicit && len(paths) > 1) || !explicit || dirGiven(inv, paths)))
	if o.noName {
		showName = false
	}
	showLine := o.lineNum && !o.noLineNum
	matched := false
	if stdinMode {
		var buf bytes.Buffer
		buf.ReadFrom(inv.Stdin)
		if search(inv, w, o, re, "<stdin>", buf.Bytes(), false, showLine) {
			matched = true
		}
	}
	first := true
	for _, f := range files {
		data, err := inv.FS.ReadFile(inv.Abs(f))
		if err != nil {
			continue
		}
		if err := inv.Sys.Charge(int64(len(data)/64 + 1)); err != nil {
			return 2
		}
		if bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0 {
			continue
		}
		var sb bytes.Buffer
		bw := bufio.NewWriter(&sb)
		hit := search(inv, bw, o, re, f, data, showName, showLine)
		bw.Flush()
		if o.filesWithout {
			if !hit {
				fmt.Fprintln(w, f)
				matched = true
			}
			continue
		}
		if hit {
			matched = true
			if o.quiet {
				return 0
			}
			if o.heading && showName && !o.filesWith && !o.count {
				if !first {
					w.WriteString("\n")
				}
				fmt.Fprintln(w, f)
			}
			first = false
			w.Write(sb.Bytes())
		}
	}
	if !matched {
		return 1
	}
	return 0
}

func dirGiven(inv *command.Invocation, paths []string) bool {
	for _, p := range paths {
		if fi, err := inv.FS.Stat(inv.Abs(p)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// search writes matches of one file; it reports whether any line matched.
func search(inv *command.Invocation, w *bufio.Writer, o *opts, re *regexp.Regexp, name string, data []byte, showName, showLine bool) bool {
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	count := 0
	lastPrinted := -1
	afterLeft := 0
	prefix := func(i int, sep string) string {
		s := ""
		if showName && !o.heading {
			s += name + sep
		}
		if showLine {
			s += strconv.Itoa(i+1) + sep
		}
		return s
	}
	for i, l := range lines {
		text := strings.TrimSuffix(l, "\n")
		hit := re.MatchString(text) != o.invert
		if !hit {
			if afterLeft > 0 && !o.count && !o.filesWith {
				w.WriteString(prefix(i, "-") + text + "\n")
				lastPrinted = i
				afterLeft--
			}
			continue
		}
		count++
		if o.filesWith || o.quiet {
			fmt.Fprintln(w, name)
			return true
		}
		if !o.count {
			if (o.before > 0 || o.after > 0) && lastPrinted >= 0 && i-o.before > lastPrinted+1 {
				w.WriteString("--\n")
			}
			for k := max(i-o.before, lastPrinted+1); k < i; k++ {
				w.WriteString(prefix(k, "-") + strings.TrimSuffix(lines[k], "\n") + "\n")
			}
			if o.onlyMatch && !o.invert {
				for _, m := range re.FindAllString(text, -1) {
					w.WriteString(prefix(i, ":") + m + "\n")
				}
			} else {
				w.WriteString(prefix(i, ":") + text + "\n")
			}
			lastPrinted = i
			afterLeft = o.after
		}
		if o.maxCount >= 0 && count >= o.maxCount {
			break
		}
	}
	if o.count && count > 0 {
		if showName {
			fmt.Fprintf(w, "%s:%d\n", name, count)
		} else {
			fmt.Fprintf(w, "%d\n", count)
		}
	}
	return count > 0
}

type ignoreRule struct {
	base, pat       string
	negate, dirOnly bool
	anchored        bool
}

func loadIgnore(inv *command.Invocation, dir, rel string) []ignoreRule {
	var out []ignoreRule
	for _, name := range []string{".gitignore", ".ignore", ".rgignore"} {
		data, err := inv.FS.ReadFile(inv.Abs(path.Join(dir, name)))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			l = strings.TrimRight(l, " \r")
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			r := ignoreRule{base: rel}
			if strings.HasPrefix(l, "!") {
				r.negate, l = true, l[1:]
			}
			if strings.HasSuffix(l, "/") {
				r.dirOnly, l = true, strings.TrimSuffix(l, "/")
			}
			r.anchored = strings.Contains(strings.TrimPrefix(l, "**/"), "/")
			r.pat = strings.TrimPrefix(l, "/")
			out = append(out, r)
		}
	}
	return out
}

func ignored(rules []ignoreRule, rel string, isDir bool) bool {
	res := false
	for _, r := range rules {
		p := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			p = strings.TrimPrefix(rel, r.base+"/")
		}
		if r.dirOnly && !isDir {
			continue
		}
		target := p
		if !r.anchored {
			target = p[strings.LastIndexByte(p, '/')+1:]
		}
		if ok, _ := path.Match(strings.ReplaceAll(r.pat, "**/", ""), target); ok {
			res = !r.negate
		}
	}
	return res
}

func globOK(o *opts, rel string) bool {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if len(o.types) > 0 {
		hit := false
		for _, t := range o.types {
			for _, g := range typeExts[t] {
				if ok, _ := path.Match(g, base); ok {
					hit = true
				}
			}
		}
		if !hit {
			return false
		}
	}
	for _, t := range o.typesNot {
		for _, g := range typeExts[t] {
			if ok, _ := path.Match(g, base); ok {
				return false
			}
		}
	}
	if len(o.globs) == 0 {
		return true
	}
	include := false
	hasInclude := false
	for _, g := range o.globs {
		neg := strings.HasPrefix(g, "!")
		g = strings.TrimPrefix(g, "!")
		target := base
		if strings.Contains(g, "/") {
			target = rel
		}
		ok, _ := path.Match(strings.ReplaceAll(g, "**/", ""), target)
		if neg {
			if ok {
				return false
			}
			continue
		}
		hasInclude = true
		if ok {
			include = true
		}
	}
	return include || !hasInclude
}

func walk(inv *command.Invocation, o *opts, root string) []string {
	var out []string
	var rules []ignoreRule
	var rec func(dir, rel string, depth int)
	rec = func(dir, rel string, depth int) {
		if depth > 64 {
			return
		}
		if !o.noIgnore {
			rules = append(rules, loadIgnore(inv, dir, rel)...)
		}
		ents, err := inv.FS.ReadDir(inv.Abs(dir))
		if err != nil {
			return
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
		for _, e := range ents {
			if strings.HasPrefix(e.Name, ".") && !o.hidden {
				continue
			}
			if e.Name == ".git" {
				continue
			}
			p := path.Join(dir, e.Name)
			r := e.Name
			if rel != "" {
				r = rel + "/" + e.Name
			}
			isDir := e.IsDir()
			if e.Mode&fs.ModeSymlink != 0 {
				continue
			}
			if !o.noIgnore && ignored(rules, r, isDir) {
				continue
			}
			if isDir {
				rec(p, r, depth+1)
				continue
			}
			if globOK(o, r) {
				if root == "." {
					p = strings.TrimPrefix(p, "./")
				}
				out = append(out, p)
			}
		}
	}
	rec(root, "", 0)
	return out
}
