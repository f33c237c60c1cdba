package make

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

var functions map[string]func(m *maker, args string, auto map[string]string) string

// splitArgs splits function arguments at top-level commas (at most n parts).
func splitArgs(s string, n int) []string {
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ',':
			if depth == 0 && (n <= 0 || len(out) < n-1) {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func init() {
	ex := func(m *maker, s string, auto map[string]string) string { return m.expand(s, auto) }
	args := func(m *maker, s string, auto map[string]string, n int) []string {
		parts := splitArgs(s, n)
		for len(parts) < n {
			parts = append(parts, "")
		}
		for i := range parts {
			parts[i] = ex(m, parts[i], auto)
		}
		return parts
	}
	words := strings.Fields
	functions = map[string]func(m *maker, args string, auto map[string]string) string{
		"subst": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 3)
			return strings.ReplaceAll(p[2], p[0], p[1])
		},
		"patsubst": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 3)
			return patsubst(p[0], p[1], p[2])
		},
		"strip": func(m *maker, s string, a map[string]string) string { return strings.Join(words(ex(m, s, a)), " ") },
		"findstring": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 2)
			if strings.Contains(p[1], p[0]) {
				return p[0]
			}
			return ""
		},
		"filter": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 2)
			return filterWords(words(p[0]), words(p[1]), true)
		},
		"filter-out": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 2)
			return filterWords(words(p[0]), words(p[1]), false)
		},
		"sort": func(m *maker, s string, a map[string]string) string {
			w := dedup(words(ex(m, s, a)))
			sort.Strings(w)
			return strings.Join(w, " ")
		},
		"word": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 2)
			n, err := strconv.Atoi(strings.TrimSpace(p[0]))
			if err != nil || n < 1 {
				m.fail("*** non-numeric first argument to 'word' function: '" + p[0] + "'.  Stop.")
			}
			w := words(p[1])
			if n > len(w) {
				return ""
			}
			return w[n-1]
		},
		"wordlist": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 3)
			i, _ := strconv.Atoi(strings.TrimSpace(p[0]))
			j, _ := strconv.Atoi(strings.TrimSpace(p[1]))
			w := words(p[2])
			if i < 1 {
				i = 1
			}
			if j > len(w) {
				j = len(w)
			}
			if i > j {
				return ""
			}
			return strings.Join(w[i-1:j], " ")
		},
		"words":     func(m *maker, s string, a map[string]string) string { return strconv.Itoa(len(words(ex(m, s, a)))) },
		"firstword": func(m *maker, s string, a map[string]string) string { return first(words(ex(m, s, a))) },
		"lastword": func(m *maker, s string, a map[string]string) string {
			w := words(ex(m, s, a))
			if len(w) == 0 {
				return ""
			}
			return w[len(w)-1]
		},
		"dir": mapWords(func(w string) string {
			if i := strings.LastIndexByte(w, '/'); i >= 0 {
				return w[:i+1]
			}
			return "./"
		}),
		"notdir": mapWords(func(w string) string { return w[strings.LastIndexByte(w, '/')+1:] }),
		"suffix": mapWords(func(w string) string {
			base := w[strings.LastIndexByte(w, '/')+1:]
			if i := strings.LastIndexByte(base, '.'); i >= 0 {
				return base[i:]
			}
			return ""
		}),
		"basename": mapWords(func(w string) string {
			slash := strings.LastIndexByte(w, '/')
			if i := strings.LastIndexByte(w, '.'); i > slash {
				return w[:i]
			}
			return w
		}),
		"addsuffix": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 2)
			var out []string
			for _, w := range words(p[1]) {
				out = append(out, w+p[0])
			}
			return strings.Join(out, " ")
		},
		"addprefix": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 2)
			var out []string
			for _, w := range words(p[1]) {
				out = append(out, p[0]+w)
			}
			return strings.Join(out, " ")
		},
		"join": func(m *maker, s string, a map[string]string) string {
			p := args(m, s, a, 2)
			x, y := words(p[0]), words(p[1])
			var out []string
			for i := 0; i < len(x) || i < len(y); i++ {
				w := ""
				if i < len(x) {
					w += x[i]
				}
				if i < len(y) {
					w += y[i]
				}
				out = append(out, w)
			}
			return strings.Join(out, " ")
		},
		"wildcard": func(m *maker, s string, a map[string]string) string {
			var out []string
			for _, pat := range words(ex(m, s, a)) {
				out = append(out, m.glob(pat)...)
			}
			return strings.Join(out, " ")
		},
		"realpath": func(m *maker, s string, a map[string]string) string {
			var out []string
			for _, w := range words(ex(m, s, a)) {
				if r, err := m.inv.FS.Realpath(m.abs(w)); err == nil {
					out = append(out, r)
				}
			}
			return strings.Join(out, " ")
		},
		"abspath": mapWordsM(func(m *maker, w string) string { return m.abs(w) }),
		"if": func(m *maker, s string, a map[string]string) string {
			p := splitArgs(s, 3)
			if strings.TrimSpace(ex(m, p[0], a)) != "" {
				if len(p) > 1 {
					return ex(m, p[1], a)
				}
				return ""
			}
			if len(p) > 2 {
				return ex(m, p[2], a)
			}
			return ""
		},
		"or": func(m *maker, s string, a map[string]string) string {
			for _, p := range splitArgs(s, 0) {
				if v := strings.TrimSpace(ex(m, p, a)); v != "" {
					return v
				}
			}
			return ""
		},
		"and": func(m *maker, s string, a map[string]string) string {
			v := ""
			for _, p := range splitArgs(s, 0) {
				if v = strings.TrimSpace(ex(m, p, a)); v == "" {
					return ""
				}
			}
			return v
		},
		"foreach": func(m *maker, s string, a map[string]string) string {
			p := splitArgs(s, 3)
			if len(p) < 3 {
				m.fail("*** insufficient number of arguments (1) to function 'foreach'.  Stop.")
			}
			name := strings.TrimSpace(ex(m, p[0], a))
			old, had := m.mf.vars[name]
			var out []string
			for _, w := range words(ex(m, p[1], a)) {
				m.mf.vars[name] = &variable{value: w, flavor: simple, origin: "automatic"}
				out = append(out, ex(m, p[2], a))
			}
			if had {
				m.mf.vars[name] = old
			} else {
				delete(m.mf.vars, name)
			}
			return strings.Join(out, " ")
		},
		"call": func(m *maker, s string, a map[string]string) string {
			p := splitArgs(s, 0)
			name := strings.TrimSpace(ex(m, p[0], a))
			saved := map[string]*variable{}
			for i := range p {
				key := strconv.Itoa(i)
				saved[key] = m.mf.vars[key]
				val := name
				if i > 0 {
					val = ex(m, p[i], a)
				}
				m.mf.vars[key] = &variable{value: val, flavor: simple, origin: "automatic"}
			}
			v := m.mf.vars[name]
			res := ""
			if v != nil {
				res = ex(m, v.value, a)
			}
			for k, old := range saved {
				if old == nil {
					delete(m.mf.vars, k)
				} else {
					m.mf.vars[k] = old
				}
			}
			return res
		},
		"value": func(m *maker, s string, a map[string]string) string {
			if v := m.mf.vars[strings.TrimSpace(ex(m, s, a))]; v != nil {
				return v.value
			}
			return ""
		},
		"origin": func(m *maker, s string, a map[string]string) string {
			if v := m.mf.vars[strings.TrimSpace(ex(m, s, a))]; v != nil {
				return v.origin
			}
			return "undefined"
		},
		"flavor": func(m *maker, s string, a map[string]string) string {
			v := m.mf.vars[strings.TrimSpace(ex(m, s, a))]
			switch {
			case v == nil:
				return "undefined"
			case v.flavor == simple:
				return "simple"
			}
			return "recursive"
		},
		"shell": func(m *maker, s string, a map[string]string) string { return m.shell(ex(m, s, a)) },
		"error": func(m *maker, s string, a map[string]string) string {
			m.fail("*** " + ex(m, s, a) + ".  Stop.")
			return ""
		},
		"warning": func(m *maker, s string, a map[string]string) string {
			fmt.Fprintf(m.inv.Stderr, "Makefile: %s\n", ex(m, s, a))
			return ""
		},
		"info": func(m *maker, s string, a map[string]string) string {
			fmt.Fprintln(m.inv.Stdout, ex(m, s, a))
			return ""
		},
		"eval": func(m *maker, s string, a map[string]string) string {
			if err := m.mf.parse(ex(m, s, a), "<eval>"); err != nil {
				m.fail(err.Error())
			}
			return ""
		},
	}
}

func mapWords(f func(string) string) func(m *maker, s string, a map[string]string) string {
	return func(m *maker, s string, a map[string]string) string {
		var out []string
		for _, w := range strings.Fields(m.expand(s, a)) {
			out = append(out, f(w))
		}
		return strings.Join(out, " ")
	}
}

func mapWordsM(f func(*maker, string) string) func(m *maker, s string, a map[string]string) string {
	return func(m *maker, s string, a map[string]string) string {
		var out []string
		for _, w := range strings.Fields(m.expand(s, a)) {
			out = append(out, f(m, w))
		}
		return strings.Join(out, " ")
	}
}

func filterWords(pats, ws []string, keep bool) string {
	var out []string
	for _, w := range ws {
		hit := false
		for _, p := range pats {
			if _, ok := matchPattern(p, w); ok {
				hit = true
				break
			}
		}
		if hit == keep {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// glob expands a shell pattern against the virtual filesystem, sorted.
func (m *maker) glob(pat string) []string {
	if !strings.ContainsAny(pat, "*?[") {
		if _, err := m.inv.FS.Lstat(m.abs(pat)); err == nil {
			return []string{pat}
		}
		return nil
	}
	dir, base := path.Split(pat)
	var dirs []string
	if strings.ContainsAny(dir, "*?[") {
		dirs = m.glob(strings.TrimSuffix(dir, "/"))
		for i := range dirs {
			dirs[i] += "/"
		}
	} else {
		dirs = []string{dir}
	}
	var out []string
	for _, d := range dirs {
		ents, err := m.inv.FS.ReadDir(m.abs(strings.TrimSuffix(d, "/") + "/."))
		if d == "" {
			ents, err = m.inv.FS.ReadDir(m.dir)
		}
		if err != nil {
			continue
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name, ".") && !strings.HasPrefix(base, ".") {
				continue
			}
			if ok, _ := path.Match(base, e.Name); ok {
				out = append(out, d+e.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}
