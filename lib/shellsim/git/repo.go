package git

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

type repo struct {
	inv  *command.Invocation
	root string // work tree
	git  string // .git directory
}

type fatal struct {
	msg  string
	code int
}

func (f *fatal) Error() string { return f.msg }

func die(code int, format string, a ...any) { panic(&fatal{fmt.Sprintf(format, a...), code}) }

func findRepo(inv *command.Invocation, dir string) *repo {
	d := dir
	for {
		if fi, err := inv.FS.Stat(command.Join(d, ".git")); err == nil && fi.IsDir() {
			return &repo{inv: inv, root: d, git: command.Join(d, ".git")}
		}
		if d == "/" {
			return nil
		}
		d = parentDir(d)
	}
}

func parentDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

func (r *repo) charge(n int) {
	if err := r.inv.Sys.Charge(int64(n/64 + 1)); err != nil {
		panic(err)
	}
}

func (r *repo) read(p string) ([]byte, error) { return r.inv.FS.ReadFile(command.Join(r.git, p)) }

func (r *repo) write(p string, data []byte) {
	full := command.Join(r.git, p)
	if err := r.inv.FS.MkdirAll(parentDir(full), 0o755); err != nil {
		die(128, "fatal: %s", command.Message(err))
	}
	if err := r.inv.FS.WriteFile(full, data, 0o644); err != nil {
		die(128, "fatal: unable to write %s: %s", p, command.Message(err))
	}
}

// ---- objects ----

func hashObject(typ string, data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", typ, len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

func (r *repo) writeObject(typ string, data []byte) string {
	r.charge(len(data))
	id := hashObject(typ, data)
	p := "objects/" + id[:2] + "/" + id[2:]
	if _, err := r.inv.FS.Stat(command.Join(r.git, p)); err == nil {
		return id
	}
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	fmt.Fprintf(w, "%s %d\x00", typ, len(data))
	w.Write(data)
	w.Close()
	r.write(p, buf.Bytes())
	return id
}

func (r *repo) readObject(id string) (string, []byte) {
	if len(id) != 40 {
		die(128, "fatal: bad object %s", id)
	}
	raw, err := r.read("objects/" + id[:2] + "/" + id[2:])
	if err != nil {
		die(128, "fatal: bad object %s", id)
	}
	zr, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		die(128, "fatal: corrupt object %s", id)
	}
	data, err := io.ReadAll(io.LimitReader(zr, 64<<20))
	if err != nil {
		die(128, "fatal: corrupt object %s", id)
	}
	r.charge(len(data))
	i := bytes.IndexByte(data, 0)
	if i < 0 {
		die(128, "fatal: corrupt object %s", id)
	}
	typ, _, _ := strings.Cut(string(data[:i]), " ")
	return typ, data[i+1:]
}

type treeEntry struct {
	mode string
	name string
	id   string
}

func (r *repo) readTree(id string) []treeEntry {
	typ, data := r.readObject(id)
	if typ != "tree" {
		die(128, "fatal: not a tree object %s", id)
	}
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+21 > len(data) {
			die(128, "fatal: corrupt tree %s", id)
		}
		out = append(out, treeEntry{mode: string(data[:sp]), name: string(data[sp+1 : nul]), id: hex.EncodeToString(data[nul+1 : nul+21])})
		data = data[nul+21:]
	}
	return out
}

// flatten lists path -> entry for every blob under a tree.
func (r *repo) flatten(id, prefix string, out map[string]indexEntry) {
	if id == "" {
		return
	}
	for _, e := range r.readTree(id) {
		p := prefix + e.name
		if e.mode == "40000" {
			r.flatten(e.id, p+"/", out)
			continue
		}
		out[p] = indexEntry{Path: p, ID: e.id, Mode: e.mode}
	}
}

// writeTree builds tree objects for a set of index entries.
func (r *repo) writeTree(entries map[string]indexEntry) string {
	type node struct {
		files map[string]indexEntry
		dirs  map[string]*node
	}
	root := &node{files: map[string]indexEntry{}, dirs: map[string]*node{}}
	for p, e := range entries {
		parts := strings.Split(p, "/")
		n := root
		for _, d := range parts[:len(parts)-1] {
			c, ok := n.dirs[d]
			if !ok {
				c = &node{files: map[string]indexEntry{}, dirs: map[string]*node{}}
				n.dirs[d] = c
			}
			n = c
		}
		n.files[parts[len(parts)-1]] = e
	}
	var write func(n *node) string
	write = func(n *node) string {
		var ents []treeEntry
		for name, e := range n.files {
			ents = append(ents, treeEntry{mode: e.Mode, name: name, id: e.ID})
		}
		for name, d := range n.dirs {
			ents = append(ents, treeEntry{mode: "40000", name: name, id: write(d)})
		}
		sort.Slice(ents, func(i, j int) bool {
			a, b := ents[i].name, ents[j].name
			if ents[i].mode == "40000" {
				a += "/"
			}
			if ents[j].mode == "40000" {
				b += "/"
			}
			return a < b
		})
		var buf bytes.Buffer
		for _, e := range ents {
			raw, _ := hex.DecodeString(e.id)
			fmt.Fprintf(&buf, "%s %s\x00", e.mode, e.name)
			buf.Write(raw)
		}
		return r.writeObject("tree", buf.Bytes())
	}
	return write(root)
}

type commit struct {
	id        string
	tree      string
	parents   []string
	author    string
	committer string
	message   string
}

func (r *repo) readCommit(id string) *commit {
	typ, data := r.readObject(id)
	if typ != "commit" {
		die(128, "fatal: %s is not a commit", id)
	}
	c := &commit{id: id}
	head, msg, _ := strings.Cut(string(data), "\n\n")
	c.message = msg
	for _, l := range strings.Split(head, "\n") {
		k, v, _ := strings.Cut(l, " ")
		switch k {
		case "tree":
			c.tree = v
		case "parent":
			c.parents = append(c.parents, v)
		case "author":
			c.author = v
		case "committer":
			c.committer = v
		}
	}
	return c
}

// ---- refs ----

func (r *repo) readRef(name string) string {
	data, err := r.read(name)
	if err != nil {
		return r.packedRef(name)
	}
	s := strings.TrimSpace(string(data))
	if strings.HasPrefix(s, "ref: ") {
		return r.readRef(strings.TrimPrefix(s, "ref: "))
	}
	return s
}

func (r *repo) packedRef(name string) string {
	data, err := r.read("packed-refs")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(data), "\n") {
		id, ref, ok := strings.Cut(l, " ")
		if ok && ref == name {
			return id
		}
	}
	return ""
}

// headRef is the branch HEAD points to ("" when detached).
func (r *repo) headRef() string {
	data, _ := r.read("HEAD")
	s := strings.TrimSpace(string(data))
	if strings.HasPrefix(s, "ref: ") {
		return strings.TrimPrefix(s, "ref: ")
	}
	return ""
}

func (r *repo) branch() string { return strings.TrimPrefix(r.headRef(), "refs/heads/") }

func (r *repo) head() string { return r.readRef("HEAD") }

func (r *repo) setHead(id string) {
	if ref := r.headRef(); ref != "" {
		r.write(ref, []byte(id+"\n"))
		return
	}
	r.write("HEAD", []byte(id+"\n"))
}

func (r *repo) branches() []string {
	var out []string
	var walk func(dir, prefix string)
	walk = func(dir, prefix string) {
		ents, err := r.inv.FS.ReadDir(command.Join(r.git, dir))
		if err != nil {
			return
		}
		for _, e := range ents {
			if e.IsDir() {
				walk(dir+"/"+e.Name, prefix+e.Name+"/")
			} else {
				out = append(out, prefix+e.Name)
			}
		}
	}
	walk("refs/heads", "")
	sort.Strings(out)
	return out
}

func (r *repo) tags() []string {
	ents, _ := r.inv.FS.ReadDir(command.Join(r.git, "refs/tags"))
	var out []string
	for _, e := range ents {
		out = append(out, e.Name)
	}
	sort.Strings(out)
	return out
}

// resolve turns a revision (HEAD, branch, tag, sha prefix, rev~n, rev^) into a commit id.
func (r *repo) resolve(rev string) (string, bool) {
	base, suffix := rev, ""
	if i := strings.IndexAny(rev, "~^"); i > 0 {
		base, suffix = rev[:i], rev[i:]
	}
	var id string
	switch {
	case base == "HEAD" || base == "@":
		id = r.head()
	case base == "ORIG_HEAD" || base == "MERGE_HEAD":
		id = r.readRef(base)
	case r.readRef("refs/heads/"+base) != "":
		id = r.readRef("refs/heads/" + base)
	case r.readRef("refs/tags/"+base) != "":
		id = r.readRef("refs/tags/" + base)
		if typ, data := r.readObject(id); typ == "tag" {
			obj, _, _ := strings.Cut(strings.TrimPrefix(string(data), "object "), "\n")
			id = obj
		}
	case strings.HasPrefix(base, "refs/") && r.readRef(base) != "":
		id = r.readRef(base)
	case len(base) >= 4 && len(base) <= 40 && isHex(base):
		id = r.expandPrefix(base)
	}
	if id == "" {
		return "", false
	}
	for len(suffix) > 0 {
		c := suffix[0]
		suffix = suffix[1:]
		n := 1
		j := 0
		for j < len(suffix) && suffix[j] >= '0' && suffix[j] <= '9' {
			j++
		}
		if j > 0 {
			n, _ = strconv.Atoi(suffix[:j])
			suffix = suffix[j:]
		}
		if c == '^' {
			if n == 0 {
				continue
			}
			p := r.readCommit(id).parents
			if n > len(p) {
				return "", false
			}
			id = p[n-1]
			continue
		}
		for k := 0; k < n; k++ {
			p := r.readCommit(id).parents
			if len(p) == 0 {
				return "", false
			}
			id = p[0]
		}
	}
	return id, true
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (r *repo) expandPrefix(p string) string {
	if len(p) == 40 {
		if _, err := r.inv.FS.Stat(command.Join(r.git, "objects/"+p[:2]+"/"+p[2:])); err == nil {
			return p
		}
		return ""
	}
	ents, err := r.inv.FS.ReadDir(command.Join(r.git, "objects/"+p[:2]))
	if err != nil {
		return ""
	}
	var hit string
	for _, e := range ents {
		if strings.HasPrefix(e.Name, p[2:]) {
			if hit != "" {
				die(128, "error: short object ID %s is ambiguous", p)
			}
			hit = p[:2] + e.Name
		}
	}
	return hit
}

// ---- index ----

type indexEntry struct {
	Path string `json:"path"`
	ID   string `json:"id"`
	Mode string `json:"mode"`
}

const indexFile = "shellsim-index.json"

func (r *repo) readIndex() map[string]indexEntry {
	out := map[string]indexEntry{}
	data, err := r.read(indexFile)
	if err != nil {
		return out
	}
	var list []indexEntry
	if json.Unmarshal(data, &list) != nil {
		die(128, "fatal: index file corrupt")
	}
	for _, e := range list {
		out[e.Path] = e
	}
	return out
}

func (r *repo) writeIndex(idx map[string]indexEntry) {
	list := make([]indexEntry, 0, len(idx))
	for _, e := range idx {
		list = append(list, e)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
	data, _ := json.Marshal(list)
	r.write(indexFile, data)
}

// ---- work tree ----

func (r *repo) abs(p string) string { return command.Join(r.root, p) }

// rel makes a user path relative to the work tree root.
func (r *repo) rel(p string) string {
	a := command.Join(r.inv.Dir, p)
	if a == r.root {
		return ""
	}
	if !strings.HasPrefix(a, r.root+"/") {
		die(128, "fatal: %s: '%s' is outside repository at '%s'", p, p, r.root)
	}
	return strings.TrimPrefix(a, r.root+"/")
}

// worktree lists tracked-candidate files (not ignored, not .git).
func (r *repo) worktree(idx map[string]indexEntry) map[string]indexEntry {
	out := map[string]indexEntry{}
	ig := r.ignores()
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := r.inv.FS.ReadDir(r.abs(dir))
		if err != nil {
			return
		}
		r.charge(len(ents) * 64)
		for _, e := range ents {
			p := e.Name
			if dir != "" {
				p = dir + "/" + e.Name
			}
			if e.Name == ".git" {
				continue
			}
			_, tracked := idx[p]
			if e.IsDir() {
				if ig.match(p, true) && !hasTrackedUnder(idx, p) {
					continue
				}
				walk(p)
				continue
			}
			if !tracked && ig.match(p, false) {
				continue
			}
			e2, ok := r.fileEntry(p)
			if ok {
				out[p] = e2
			}
		}
	}
	walk("")
	return out
}

func hasTrackedUnder(idx map[string]indexEntry, dir string) bool {
	for p := range idx {
		if strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

func (r *repo) fileEntry(p string) (indexEntry, bool) {
	fi, err := r.inv.FS.Lstat(r.abs(p))
	if err != nil {
		return indexEntry{}, false
	}
	mode := "100644"
	var data []byte
	switch {
	case fi.Mode&fs.ModeSymlink != 0:
		mode = "120000"
		t, _ := r.inv.FS.Readlink(r.abs(p))
		data = []byte(t)
	case fi.IsDir():
		return indexEntry{}, false
	default:
		if fi.Mode.Perm()&0o100 != 0 {
			mode = "100755"
		}
		data, err = r.inv.FS.ReadFile(r.abs(p))
		if err != nil {
			return indexEntry{}, false
		}
	}
	r.charge(len(data))
	return indexEntry{Path: p, ID: hashObject("blob", data), Mode: mode}, true
}

func (r *repo) addFile(idx map[string]indexEntry, p string) {
	fi, err := r.inv.FS.Lstat(r.abs(p))
	if err != nil {
		return
	}
	var data []byte
	if fi.Mode&fs.ModeSymlink != 0 {
		t, _ := r.inv.FS.Readlink(r.abs(p))
		data = []byte(t)
	} else {
		data, _ = r.inv.FS.ReadFile(r.abs(p))
	}
	e, _ := r.fileEntry(p)
	r.writeObject("blob", data)
	idx[p] = e
}

func (r *repo) checkoutFile(p string, e indexEntry) {
	_, data := r.readObject(e.ID)
	full := r.abs(p)
	r.inv.FS.MkdirAll(parentDir(full), 0o755)
	if e.Mode == "120000" {
		r.inv.FS.Remove(full)
		r.inv.FS.Symlink(string(data), full)
		return
	}
	perm := fs.FileMode(0o644)
	if e.Mode == "100755" {
		perm = 0o755
	}
	if err := r.inv.FS.WriteFile(full, data, perm); err != nil {
		die(128, "error: unable to write file %s: %s", p, command.Message(err))
	}
	r.inv.FS.Chmod(full, perm)
}

func (r *repo) removeFile(p string) {
	r.inv.FS.Remove(r.abs(p))
	// remove now-empty parent directories, as git does
	for d := parentDir(r.abs(p)); d != r.root && len(d) > len(r.root); d = parentDir(d) {
		if err := r.inv.FS.Remove(d); err != nil {
			break
		}
	}
}

// ---- ignore rules ----

type ignoreRule struct {
	pat      string
	negate   bool
	dirOnly  bool
	anchored bool
	base     string
}

type ignoreSet []ignoreRule

func (r *repo) ignores() ignoreSet {
	var rules ignoreSet
	load := func(file, base string) {
		data, err := r.inv.FS.ReadFile(file)
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(data), "\n") {
			l = strings.TrimRight(l, " \r")
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			ru := ignoreRule{base: base}
			if strings.HasPrefix(l, "!") {
				ru.negate, l = true, l[1:]
			}
			if strings.HasSuffix(l, "/") {
				ru.dirOnly, l = true, strings.TrimSuffix(l, "/")
			}
			if strings.Contains(strings.TrimPrefix(l, "**/"), "/") {
				ru.anchored = true
			}
			ru.pat = strings.TrimPrefix(l, "/")
			rules = append(rules, ru)
		}
	}
	load(command.Join(r.git, "info/exclude"), "")
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 64 {
			return
		}
		load(r.abs(command.Join(dir, ".gitignore")), dir)
		ents, _ := r.inv.FS.ReadDir(r.abs(dir))
		for _, e := range ents {
			if e.IsDir() && e.Name != ".git" {
				walk(strings.TrimPrefix(dir+"/"+e.Name, "/"), depth+1)
			}
		}
	}
	walk("", 0)
	return rules
}

func (s ignoreSet) match(p string, isDir bool) bool {
	ignored := false
	for _, ru := range s {
		rel := p
		if ru.base != "" {
			if !strings.HasPrefix(p, ru.base+"/") {
				continue
			}
			rel = strings.TrimPrefix(p, ru.base+"/")
		}
		if ru.dirOnly && !isDir {
			// a file inside an ignored directory is matched through the directory
			continue
		}
		if globMatch(ru, rel) {
			ignored = !ru.negate
		}
	}
	return ignored
}

func globMatch(ru ignoreRule, rel string) bool {
	if !ru.anchored {
		base := rel[strings.LastIndexByte(rel, '/')+1:]
		return wildMatch(ru.pat, base)
	}
	return wildMatch(ru.pat, rel)
}

// wildMatch matches git wildcards: *, ?, [..], and ** across directories.
func wildMatch(pat, s string) bool {
	return (&wildMatcher{memo: map[[2]int]bool{}}).match(pat, s)
}

// wildMatcher memoizes on suffix lengths, so hostile patterns ("*a*a*a...")
// stay polynomial instead of backtracking exponentially.
type wildMatcher struct{ memo map[[2]int]bool }

func (w *wildMatcher) match(pat, s string) bool {
	key := [2]int{len(pat), len(s)}
	if v, ok := w.memo[key]; ok {
		return v
	}
	v := w.match1(pat, s)
	w.memo[key] = v
	return v
}

func (w *wildMatcher) match1(pat, s string) bool {
	if pat == "" {
		return s == ""
	}
	if strings.HasPrefix(pat, "**/") {
		rest := pat[3:]
		if w.match(rest, s) {
			return true
		}
		for i := 0; i < len(s); i++ {
			if s[i] == '/' && w.match(rest, s[i+1:]) {
				return true
			}
		}
		return false
	}
	if pat == "**" || strings.HasSuffix(pat, "/**") && strings.HasPrefix(s, strings.TrimSuffix(pat, "/**")+"/") {
		return true
	}
	switch pat[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if i > 0 && s[i-1] == '/' {
				return false
			}
			if w.match(pat[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && s[0] != '/' && w.match(pat[1:], s[1:])
	case '[':
		end := strings.IndexByte(pat, ']')
		if end < 0 || s == "" {
			return s != "" && pat[0] == s[0] && w.match(pat[1:], s[1:])
		}
		set := pat[1:end]
		neg := strings.HasPrefix(set, "!") || strings.HasPrefix(set, "^")
		if neg {
			set = set[1:]
		}
		hit := false
		for i := 0; i < len(set); i++ {
			if i+2 < len(set) && set[i+1] == '-' {
				if s[0] >= set[i] && s[0] <= set[i+2] {
					hit = true
				}
				i += 2
			} else if set[i] == s[0] {
				hit = true
			}
		}
		return hit != neg && w.match(pat[end+1:], s[1:])
	case '\\':
		if len(pat) > 1 {
			return s != "" && s[0] == pat[1] && w.match(pat[2:], s[1:])
		}
	}
	return s != "" && pat[0] == s[0] && w.match(pat[1:], s[1:])
}

// ---- identity and config ----

func (r *repo) config() *config {
	c := &config{}
	if home, ok := r.inv.Env.Get("HOME"); ok {
		c.load(r.inv, command.Join(home, ".gitconfig"))
	}
	if r != nil && r.git != "" {
		c.load(r.inv, command.Join(r.git, "config"))
	}
	return c
}

func (r *repo) ident(kind string) string {
	env := r.inv.Env
	name, okN := env.Get("GIT_" + kind + "_NAME")
	email, okE := env.Get("GIT_" + kind + "_EMAIL")
	cfg := r.config()
	if !okN {
		name, okN = cfg.get("user.name")
	}
	if !okE {
		email, okE = cfg.get("user.email")
	}
	if !okN || !okE || name == "" {
		die(128, "Author identity unknown\n\n*** Please tell me who you are.\n\nRun\n\n  git config --global user.email \"you@example.com\"\n  git config --global user.name \"Your Name\"\n\nto set your account's default identity.\nOmit --global to set the identity only in this repository.\n\nfatal: unable to auto-detect email address (got 'root@%s.(none)')", r.inv.Sys.Hostname())
	}
	date, ok := env.Get("GIT_" + kind + "_DATE")
	stamp := ""
	if ok && date != "" {
		stamp = parseDate(date)
	}
	if stamp == "" {
		stamp = fmt.Sprintf("%d +0000", r.inv.Sys.Now().Unix())
	}
	return fmt.Sprintf("%s <%s> %s", name, email, stamp)
}

// parseDate accepts Git's internal "@unix tz" / "unix tz" and ISO 8601.
func parseDate(s string) string {
	s = strings.TrimSpace(s)
	t := strings.TrimPrefix(s, "@")
	parts := strings.Fields(t)
	if len(parts) >= 1 {
		if n, err := strconv.ParseInt(parts[0], 10, 64); err == nil {
			tz := "+0000"
			if len(parts) > 1 {
				tz = parts[1]
			}
			return fmt.Sprintf("%d %s", n, tz)
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05-07:00", "2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05 -0700", "2006-01-02T15:04:05 -0700", "2006-01-02T15:04:05", "2006-01-02 15:04:05", "Mon Jan 2 15:04:05 2006 -0700", "Mon, 2 Jan 2006 15:04:05 -0700", "2006-01-02"} {
		if tm, err := time.Parse(layout, s); err == nil {
			_, off := tm.Zone()
			sign := '+'
			if off < 0 {
				sign, off = '-', -off
			}
			return fmt.Sprintf("%d %c%02d%02d", tm.Unix(), sign, off/3600, off%3600/60)
		}
	}
	return ""
}

type config struct {
	entries [][2]string // key (section.name), value
}

func (c *config) load(inv *command.Invocation, path string) {
	data, err := inv.FS.ReadFile(path)
	if err != nil {
		return
	}
	section := ""
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			sec := strings.TrimSpace(l[1 : len(l)-1])
			if name, sub, ok := strings.Cut(sec, " "); ok {
				sec = strings.ToLower(name) + "." + strings.Trim(strings.TrimSpace(sub), "\"")
			} else {
				sec = strings.ToLower(sec)
			}
			section = sec
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			k, v = l, "true"
		}
		c.entries = append(c.entries, [2]string{section + "." + strings.ToLower(strings.TrimSpace(k)), strings.Trim(strings.TrimSpace(v), "\"")})
	}
}

func (c *config) get(key string) (string, bool) {
	key = strings.ToLower(key)
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i][0] == key {
			return c.entries[i][1], true
		}
	}
	return "", false
}

// setConfig writes key=value into a git config file.
func setConfig(inv *command.Invocation, path, key, value string, unset bool) {
	data, _ := inv.FS.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(data) == 0 {
		lines = nil
	}
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		die(2, "error: key does not contain a section: %s", key)
	}
	sec, name := key[:i], key[i+1:]
	header := "[" + sec + "]"
	if j := strings.IndexByte(sec, '.'); j >= 0 {
		header = "[" + sec[:j] + " \"" + sec[j+1:] + "\"]"
	}
	inSec := false
	secEnd := -1
	for idx, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			inSec = strings.EqualFold(t, header)
			if inSec {
				secEnd = idx
			}
			continue
		}
		if inSec {
			secEnd = idx
			k, _, _ := strings.Cut(t, "=")
			if strings.EqualFold(strings.TrimSpace(k), name) {
				if unset {
					lines = append(lines[:idx], lines[idx+1:]...)
				} else {
					lines[idx] = "\t" + name + " = " + value
				}
				writeLines(inv, path, lines)
				return
			}
		}
	}
	if unset {
		die(5, "")
	}
	if secEnd < 0 {
		lines = append(lines, header, "\t"+name+" = "+value)
	} else {
		lines = append(lines[:secEnd+1], append([]string{"\t" + name + " = " + value}, lines[secEnd+1:]...)...)
	}
	writeLines(inv, path, lines)
}

func writeLines(inv *command.Invocation, path string, lines []string) {
	inv.FS.MkdirAll(parentDir(path), 0o755)
	if err := inv.FS.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		die(128, "error: could not write config file %s: %s", path, command.Message(err))
	}
}
