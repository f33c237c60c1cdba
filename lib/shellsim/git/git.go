package git

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// git - the stupid content tracker (deterministic subset)
//
//	git [-C DIR] [-c NAME=VALUE] COMMAND [ARGS]

// Commands returns git, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{{Name: "git", Trust: command.Partial, Run: Main}}
}

type ctx struct {
	inv  *command.Invocation
	out  io.Writer
	errw io.Writer
	r    *repo
	over map[string]string // -c overrides
}

var network = map[string]bool{"clone": true, "fetch": true, "pull": true, "push": true, "ls-remote": true, "submodule": true, "remote": false}

// Main runs git.
func Main(inv *command.Invocation) (status int) {
	c := &ctx{inv: inv, out: inv.Stdout, errw: inv.Stderr, over: map[string]string{}}
	defer func() {
		if rec := recover(); rec != nil {
			var f *fatal
			if e, ok := rec.(error); ok && errors.As(e, &f) {
				if f.msg != "" {
					fmt.Fprintln(inv.Stderr, f.msg)
				}
				status = f.code
				return
			}
			if e, ok := rec.(error); ok && errors.Is(e, command.ErrStopped) {
				status = 128
				return
			}
			panic(rec)
		}
	}()
	args := inv.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch a := args[0]; {
		case a == "-C" && len(args) > 1:
			sub := *inv
			sub.Dir = command.Join(inv.Dir, args[1])
			inv = &sub
			c.inv = inv
			args = args[2:]
		case a == "-c" && len(args) > 1:
			k, v, _ := strings.Cut(args[1], "=")
			c.over[strings.ToLower(k)] = v
			args = args[2:]
		case a == "--version":
			fmt.Fprintln(c.out, "git version 2.39.5")
			return 0
		case a == "--no-pager" || a == "-P" || a == "--no-optional-locks" || a == "--literal-pathspecs":
			args = args[1:]
		case a == "-h" || a == "--help":
			fmt.Fprintln(c.out, "usage: git [-C <path>] [-c <name>=<value>] <command> [<args>]")
			return 0
		default:
			fmt.Fprintf(c.errw, "unknown option: %s\nusage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>] <command> [<args>]\n", a)
			return 129
		}
	}
	if len(args) == 0 {
		fmt.Fprintln(c.out, "usage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>] <command> [<args>]")
		return 1
	}
	cmd, rest := args[0], args[1:]
	if network[cmd] {
		inv.Sys.Unsupported("git " + cmd)
		die(128, "fatal: git %s needs a network, which ShellSim does not have", cmd)
	}
	fn, ok := commands[cmd]
	if !ok {
		if cmd == "help" {
			fmt.Fprintln(c.out, "usage: git <command> [<args>]")
			return 0
		}
		if _, known := partialCmds[cmd]; known {
			inv.Sys.Unsupported("git " + cmd)
			fmt.Fprintf(c.errw, "git: '%s' is not supported in ShellSim\n", cmd)
			return 129
		}
		fmt.Fprintf(c.errw, "git: '%s' is not a git command. See 'git --help'.\n", cmd)
		return 1
	}
	if cmd != "init" && cmd != "config" && cmd != "version" {
		c.r = findRepo(inv, inv.Dir)
		if c.r == nil {
			die(128, "fatal: not a git repository (or any of the parent directories): .git")
		}
	} else {
		c.r = findRepo(inv, inv.Dir)
	}
	return fn(c, rest)
}

var partialCmds = map[string]bool{"rebase": true, "cherry-pick": true, "revert": true, "bisect": true, "worktree": true,
	"blame": true, "reflog": true, "clean": true, "grep": true, "describe": true, "shortlog": true, "apply": true, "am": true, "format-patch": true}

var commands map[string]func(c *ctx, args []string) int

func init() {
	commands = map[string]func(c *ctx, args []string) int{
		"init": cmdInit, "config": cmdConfig, "add": cmdAdd, "rm": cmdRm, "mv": cmdMv, "commit": cmdCommit,
		"status": cmdStatus, "log": cmdLog, "show": cmdShow, "diff": cmdDiff, "branch": cmdBranch,
		"checkout": cmdCheckout, "switch": cmdSwitch, "restore": cmdRestore, "reset": cmdReset, "tag": cmdTag,
		"rev-parse": cmdRevParse, "ls-files": cmdLsFiles, "merge": cmdMerge, "stash": cmdStash,
		"hash-object": cmdHashObject, "cat-file": cmdCatFile, "version": func(c *ctx, a []string) int {
			fmt.Fprintln(c.out, "git version 2.39.5")
			return 0
		},
		"write-tree": func(c *ctx, a []string) int {
			fmt.Fprintln(c.out, c.r.writeTree(c.r.readIndex()))
			return 0
		},
		"rev-list": cmdRevList, "ls-tree": cmdLsTree,
	}
}

func (c *ctx) cfg(key string) (string, bool) {
	if v, ok := c.over[strings.ToLower(key)]; ok {
		return v, true
	}
	var r *repo
	if c.r != nil {
		r = c.r
	} else {
		r = &repo{inv: c.inv}
	}
	return r.config().get(key)
}

// ---- init / config ----

func cmdInit(c *ctx, args []string) int {
	dir := c.inv.Dir
	quiet := false
	branch := ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-b" || a == "--initial-branch":
			if i+1 < len(args) {
				branch = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--initial-branch="):
			branch = strings.TrimPrefix(a, "--initial-branch=")
		case strings.HasPrefix(a, "-"):
		default:
			dir = command.Join(c.inv.Dir, a)
		}
	}
	gitDir := command.Join(dir, ".git")
	r := &repo{inv: c.inv, root: dir, git: gitDir}
	if _, err := c.inv.FS.Stat(command.Join(gitDir, "HEAD")); err == nil {
		if !quiet {
			fmt.Fprintf(c.out, "Reinitialized existing Git repository in %s/\n", gitDir)
		}
		return 0
	}
	if err := c.inv.FS.MkdirAll(dir, 0o755); err != nil {
		die(128, "fatal: cannot mkdir %s: %s", dir, command.Message(err))
	}
	if branch == "" {
		if b, ok := c.cfg("init.defaultBranch"); ok {
			branch = b
		} else {
			branch = "master"
			fmt.Fprint(c.errw, "hint: Using 'master' as the name for the initial branch. This default branch name\nhint: is subject to change. To configure the initial branch name to use in all\nhint: of your new repositories, which will suppress this warning, call:\nhint: \nhint: \tgit config --global init.defaultBranch <name>\nhint: \nhint: Names commonly chosen instead of 'master' are 'main', 'trunk' and\nhint: 'development'. The just-created branch can be renamed via this command:\nhint: \nhint: \tgit branch -m <name>\n")
		}
	}
	r.write("HEAD", []byte("ref: refs/heads/"+branch+"\n"))
	r.write("config", []byte("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"))
	r.write("description", []byte("Unnamed repository; edit this file 'description' to name the repository.\n"))
	c.inv.FS.MkdirAll(command.Join(gitDir, "objects/info"), 0o755)
	c.inv.FS.MkdirAll(command.Join(gitDir, "refs/heads"), 0o755)
	c.inv.FS.MkdirAll(command.Join(gitDir, "refs/tags"), 0o755)
	c.inv.FS.MkdirAll(command.Join(gitDir, "info"), 0o755)
	r.write("info/exclude", []byte("# git ls-files --others --exclude-from=.git/info/exclude\n"))
	if !quiet {
		fmt.Fprintf(c.out, "Initialized empty Git repository in %s/\n", gitDir)
	}
	return 0
}

func cmdConfig(c *ctx, args []string) int {
	global := false
	file := ""
	unset, list, get := false, false, false
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--global":
			global = true
		case "--local":
		case "--unset":
			unset = true
		case "--list", "-l":
			list = true
		case "--get":
			get = true
		case "-f", "--file":
			if i+1 < len(args) {
				file = command.Join(c.inv.Dir, args[i+1])
				i++
			}
		case "--add", "--replace-all", "--bool", "--int", "--type=bool":
		default:
			rest = append(rest, a)
		}
	}
	if file == "" {
		if global {
			home, _ := c.inv.Env.Get("HOME")
			if home == "" {
				home = "/root"
			}
			file = command.Join(home, ".gitconfig")
		} else {
			if c.r == nil {
				die(128, "fatal: not in a git directory")
			}
			file = command.Join(c.r.git, "config")
		}
	}
	if list {
		cf := &config{}
		if global || c.r == nil {
			cf.load(c.inv, file)
		} else {
			cf = c.r.config()
		}
		for _, e := range cf.entries {
			fmt.Fprintf(c.out, "%s=%s\n", e[0], e[1])
		}
		return 0
	}
	switch {
	case unset && len(rest) == 1:
		setConfig(c.inv, file, strings.ToLower(rest[0]), "", true)
		return 0
	case len(rest) == 1 || get:
		if len(rest) == 0 {
			die(129, "error: wrong number of arguments")
		}
		var v string
		var ok bool
		if global {
			cf := &config{}
			cf.load(c.inv, file)
			v, ok = cf.get(rest[0])
		} else {
			v, ok = c.cfg(rest[0])
		}
		if !ok {
			return 1
		}
		fmt.Fprintln(c.out, v)
		return 0
	case len(rest) == 2:
		setConfig(c.inv, file, rest[0], rest[1], false)
		return 0
	}
	die(129, "usage: git config [<options>]")
	return 0
}

// ---- add / rm / mv ----

func (c *ctx) pathspecs(args []string) []string {
	var out []string
	for _, a := range args {
		if a == "--" {
			continue
		}
		out = append(out, c.r.rel(a))
	}
	return out
}

func underAny(p string, specs []string) bool {
	for _, s := range specs {
		if s == "" || s == "." || p == s || strings.HasPrefix(p, strings.TrimSuffix(s, "/")+"/") {
			return true
		}
		if strings.ContainsAny(s, "*?[") && wildMatch(s, p) {
			return true
		}
	}
	return false
}

func cmdAdd(c *ctx, args []string) int {
	all, update, force, dry := false, false, false, false
	var paths []string
	for _, a := range args {
		switch a {
		case "-A", "--all":
			all = true
		case "-u", "--update":
			update = true
		case "-f", "--force":
			force = true
		case "-n", "--dry-run":
			dry = true
		case "-v", "--verbose", "--":
		default:
			if strings.HasPrefix(a, "-") {
				die(129, "error: unknown option '%s'", strings.TrimLeft(a, "-"))
			}
			paths = append(paths, a)
		}
	}
	if len(paths) == 0 && !all && !update {
		fmt.Fprintln(c.errw, "Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"")
		return 0
	}
	specs := c.pathspecs(paths)
	if len(specs) == 0 {
		specs = []string{""}
	}
	idx := c.r.readIndex()
	wt := c.r.worktree(idx)
	ig := c.r.ignores()
	matched := map[string]bool{}
	for _, s := range specs {
		if s == "" || s == "." {
			continue
		}
		hit := false
		for p := range wt {
			if underAny(p, []string{s}) {
				hit = true
			}
		}
		for p := range idx {
			if underAny(p, []string{s}) {
				hit = true
			}
		}
		if !hit {
			if _, err := c.inv.FS.Lstat(c.r.abs(s)); err == nil && ig.match(s, false) && !force {
				fmt.Fprintf(c.errw, "The following paths are ignored by one of your .gitignore files:\n%s\nhint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: \"git config advice.addIgnoredFile false\"\n", s)
				return 1
			}
			if _, err := c.inv.FS.Lstat(c.r.abs(s)); err == nil && force {
				c.r.addFile(idx, s)
				continue
			}
			die(128, "fatal: pathspec '%s' did not match any files", s)
		}
	}
	for p := range wt {
		if update {
			if _, tracked := idx[p]; !tracked {
				continue
			}
		}
		if underAny(p, specs) {
			matched[p] = true
			if idx[p] != wt[p] {
				if dry {
					fmt.Fprintf(c.out, "add '%s'\n", p)
					continue
				}
				c.r.addFile(idx, p)
			}
		}
	}
	for p := range idx {
		if _, exists := wt[p]; !exists && underAny(p, specs) {
			if dry {
				fmt.Fprintf(c.out, "remove '%s'\n", p)
				continue
			}
			delete(idx, p)
		}
	}
	if !dry {
		c.r.writeIndex(idx)
		var still []string
		for _, p := range c.unmerged() {
			if !underAny(p, specs) {
				still = append(still, p)
			}
		}
		c.setUnmerged(still)
	}
	return 0
}

func cmdRm(c *ctx, args []string) int {
	cached, recursive, force, quiet := false, false, false, false
	var paths []string
	for _, a := range args {
		switch a {
		case "--cached":
			cached = true
		case "-r":
			recursive = true
		case "-f", "--force":
			force = true
		case "-q", "--quiet":
			quiet = true
		case "-rf", "-fr":
			recursive, force = true, true
		case "--":
		default:
			paths = append(paths, a)
		}
	}
	_ = force
	idx := c.r.readIndex()
	var removed []string
	for _, s := range c.pathspecs(paths) {
		hit := false
		for p := range idx {
			if p == s || (strings.HasPrefix(p, s+"/") || s == "" || s == ".") {
				if p != s && !recursive {
					die(128, "fatal: not removing '%s' recursively without -r", s)
				}
				hit = true
				removed = append(removed, p)
			}
		}
		if !hit {
			die(128, "fatal: pathspec '%s' did not match any files", s)
		}
	}
	sort.Strings(removed)
	for _, p := range removed {
		delete(idx, p)
		if !cached {
			c.r.removeFile(p)
		}
		if !quiet {
			fmt.Fprintf(c.out, "rm '%s'\n", p)
		}
	}
	c.r.writeIndex(idx)
	return 0
}

func cmdMv(c *ctx, args []string) int {
	var paths []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			paths = append(paths, a)
		}
	}
	if len(paths) != 2 {
		die(129, "usage: git mv [<options>] <source>... <destination>")
	}
	src, dst := c.r.rel(paths[0]), c.r.rel(paths[1])
	idx := c.r.readIndex()
	if fi, err := c.inv.FS.Stat(c.r.abs(dst)); err == nil && fi.IsDir() {
		dst = strings.TrimPrefix(dst+"/"+src[strings.LastIndexByte(src, '/')+1:], "/")
	}
	moved := false
	for p, e := range idx {
		if p == src || strings.HasPrefix(p, src+"/") {
			np := dst + strings.TrimPrefix(p, src)
			delete(idx, p)
			e.Path = np
			idx[np] = e
			moved = true
		}
	}
	if !moved {
		die(128, "fatal: not under version control, source=%s, destination=%s", src, dst)
	}
	if err := c.inv.FS.Rename(c.r.abs(src), c.r.abs(dst)); err != nil {
		die(128, "fatal: renaming '%s' failed: %s", src, command.Message(err))
	}
	c.r.writeIndex(idx)
	return 0
}

// ---- commit ----

func (c *ctx) headTree() map[string]indexEntry {
	out := map[string]indexEntry{}
	if h := c.r.head(); h != "" {
		c.r.flatten(c.r.readCommit(h).tree, "", out)
	}
	return out
}

type change struct {
	from   string // rename source, for kind 'R'
	path   string
	kind   byte // 'A', 'M', 'D', 'T'
	old    indexEntry
	new    indexEntry
	hasOld bool
	hasNew bool
}

func diffMaps(a, b map[string]indexEntry) []change {
	var out []change
	for p, e := range b {
		o, ok := a[p]
		switch {
		case !ok:
			out = append(out, change{path: p, kind: 'A', new: e, hasNew: true})
		case o.ID != e.ID || o.Mode != e.Mode:
			out = append(out, change{path: p, kind: 'M', old: o, new: e, hasOld: true, hasNew: true})
		}
	}
	for p, e := range a {
		if _, ok := b[p]; !ok {
			out = append(out, change{path: p, kind: 'D', old: e, hasOld: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// detectRenames pairs deleted and added paths with identical content, as
// Git's exact rename detection does (similarity renames are not detected).
func detectRenames(changes []change) []change {
	used := map[int]bool{}
	var out []change
	for i, ch := range changes {
		if ch.kind != 'A' {
			continue
		}
		for j, d := range changes {
			if d.kind == 'D' && !used[j] && d.old.ID == ch.new.ID {
				used[j], used[i] = true, true
				out = append(out, change{from: d.path, path: ch.path, kind: 'R', old: d.old, new: ch.new, hasOld: true, hasNew: true})
				break
			}
		}
	}
	for i, ch := range changes {
		if !used[i] {
			out = append(out, ch)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// splitShort expands bundled short options as git's option parser reads
// them: "-qam msg" is "-q -a -m msg" and "-mmsg" is "-m msg". flags are
// the command's short switches, valued those of them taking a value (the
// rest of the bundle, else the next argument, which is never expanded);
// longValued are long options whose value is the next argument.
func splitShort(args []string, flags, valued string, longValued ...string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if slices.Contains(longValued, a) {
			out = append(out, a)
			if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			ch := a[j]
			if !strings.ContainsRune(flags, rune(ch)) {
				die(129, "error: unknown switch `%c'", ch)
			}
			out = append(out, "-"+string(ch))
			if strings.ContainsRune(valued, rune(ch)) {
				if j+1 < len(a) {
					out = append(out, a[j+1:])
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
					i++
				}
				break
			}
		}
	}
	return out
}

func cmdCommit(c *ctx, args []string) int {
	var msgs []string
	all, allowEmpty, amend, quiet := false, false, false, false
	args = splitShort(args, "amqnsF", "mF", "--message", "--file")
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m" || a == "--message":
			if i+1 >= len(args) {
				die(129, "error: switch `m' requires a value")
			}
			msgs = append(msgs, args[i+1])
			i++
		case strings.HasPrefix(a, "--message="):
			msgs = append(msgs, strings.TrimPrefix(a, "--message="))
		case a == "-a" || a == "--all":
			all = true
		case a == "--allow-empty":
			allowEmpty = true
		case a == "--amend":
			amend = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--no-edit" || a == "--no-verify" || a == "-n" || a == "--allow-empty-message" || a == "-s" || a == "--signoff":
		case a == "-F" || a == "--file":
			if i+1 < len(args) {
				data, err := c.inv.FS.ReadFile(command.Join(c.inv.Dir, args[i+1]))
				if err != nil {
					die(128, "fatal: could not read log file '%s': %s", args[i+1], command.Message(err))
				}
				msgs = append(msgs, strings.TrimRight(string(data), "\n"))
				i++
			}
		default:
			if strings.HasPrefix(a, "-") {
				die(129, "error: unknown option `%s'", strings.TrimLeft(a, "-"))
			}
		}
	}
	idx := c.r.readIndex()
	if all {
		wt := c.r.worktree(idx)
		for p := range idx {
			if e, ok := wt[p]; !ok {
				delete(idx, p)
			} else if e != idx[p] {
				c.r.addFile(idx, p)
			}
		}
		c.r.writeIndex(idx)
	}
	merging := c.r.readRef("MERGE_HEAD")
	if len(c.unmerged()) > 0 {
		die(128, "error: Committing is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.")
	}
	parentID := c.r.head()
	var parents []string
	if amend && parentID != "" {
		old := c.r.readCommit(parentID)
		parents = old.parents
		if len(msgs) == 0 {
			msgs = []string{strings.TrimRight(old.message, "\n")}
		}
	} else if parentID != "" {
		parents = []string{parentID}
	}
	if merging != "" {
		parents = append(parents, merging)
		if len(msgs) == 0 {
			if m, err := c.r.read("MERGE_MSG"); err == nil {
				msgs = []string{strings.TrimRight(string(m), "\n")}
			}
		}
	}
	if len(msgs) == 0 {
		die(1, "error: ShellSim has no editor: use git commit -m <message>\nAborting commit due to empty commit message.")
	}
	head := c.headTree()
	if amend && len(parents) > 0 {
		head = map[string]indexEntry{}
		c.r.flatten(c.r.readCommit(parents[0]).tree, "", head)
	} else if amend {
		head = map[string]indexEntry{}
	}
	changes := detectRenames(diffMaps(head, idx))
	if len(changes) == 0 && !allowEmpty && merging == "" && !amend {
		c.printStatus(false, true)
		return 1
	}
	tree := c.r.writeTree(idx)
	author := c.r.ident("AUTHOR")
	committer := c.r.ident("COMMITTER")
	msg := strings.Join(msgs, "\n\n")
	msg = cleanupMessage(msg)
	var sb strings.Builder
	fmt.Fprintf(&sb, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&sb, "parent %s\n", p)
	}
	fmt.Fprintf(&sb, "author %s\ncommitter %s\n\n%s", author, committer, msg)
	id := c.r.writeObject("commit", []byte(sb.String()))
	if parentID != "" {
		c.r.write("ORIG_HEAD", []byte(parentID+"\n"))
	}
	c.r.setHead(id)
	c.inv.FS.Remove(command.Join(c.r.git, "MERGE_HEAD"))
	c.inv.FS.Remove(command.Join(c.r.git, "MERGE_MSG"))
	if quiet {
		return 0
	}
	root := ""
	if len(parents) == 0 {
		root = " (root-commit)"
	}
	br := c.r.branch()
	if br == "" {
		br = "detached HEAD"
	}
	subject, _, _ := strings.Cut(msg, "\n")
	fmt.Fprintf(c.out, "[%s%s %s] %s\n", br, root, id[:7], subject)
	an, ae, _, _ := parseIdent(author)
	cn, ce, _, _ := parseIdent(committer)
	if an != cn || ae != ce {
		fmt.Fprintf(c.out, " Author: %s <%s>\n", an, ae)
	}
	c.printDiffstatSummary(changes, true)
	return 0
}

func cleanupMessage(m string) string {
	lines := strings.Split(m, "\n")
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, strings.TrimRight(l, " \t"))
	}
	s := strings.Trim(strings.Join(out, "\n"), "\n")
	// collapse runs of blank lines
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s + "\n"
}

func (c *ctx) blob(e indexEntry) string {
	if e.ID == "" {
		return ""
	}
	_, data := c.r.readObject(e.ID)
	return string(data)
}

func (c *ctx) worktreeContent(p string) string {
	data, err := c.inv.FS.ReadFile(c.r.abs(p))
	if err != nil {
		return ""
	}
	return string(data)
}

// printDiffstatSummary prints " N files changed, ..." and create/delete mode lines.
func (c *ctx) printDiffstatSummary(changes []change, modes bool) {
	files, ins, del := 0, 0, 0
	for _, ch := range changes {
		files++
		_, a, d := unified(c.blob(ch.old), c.blob(ch.new))
		ins += a
		del += d
	}
	c.out.Write([]byte(summaryLine(files, ins, del)))
	if modes {
		for _, ch := range changes {
			switch ch.kind {
			case 'A':
				fmt.Fprintf(c.out, " create mode %s %s\n", ch.new.Mode, ch.path)
			case 'D':
				fmt.Fprintf(c.out, " delete mode %s %s\n", ch.old.Mode, ch.path)
			case 'M':
				if ch.old.Mode != ch.new.Mode {
					fmt.Fprintf(c.out, " mode change %s => %s %s\n", ch.old.Mode, ch.new.Mode, ch.path)
				}
			case 'R':
				fmt.Fprintf(c.out, " rename %s => %s (100%%)\n", ch.from, ch.path)
			}
		}
	}
}

func summaryLine(files, ins, del int) string {
	s := fmt.Sprintf(" %d file%s changed", files, plural(files))
	if ins > 0 || (ins == 0 && del == 0) {
		s += fmt.Sprintf(", %d insertion%s(+)", ins, plural(ins))
	}
	if del > 0 {
		s += fmt.Sprintf(", %d deletion%s(-)", del, plural(del))
	}
	return s + "\n"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ---- status ----

func cmdStatus(c *ctx, args []string) int {
	short, porcelain := false, false
	for _, a := range args {
		switch a {
		case "-s", "--short":
			short = true
		case "--porcelain", "--porcelain=v1":
			porcelain = true
		case "-b", "--branch", "-u", "-uall", "--untracked-files=all", "--untracked-files", "--ignored":
		}
	}
	if short || porcelain {
		c.printShortStatus(contains(args, "-b") || contains(args, "--branch"))
		return 0
	}
	c.printStatus(true, false)
	return 0
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func (c *ctx) statusSets() (staged, unstaged []change, untracked []string) {
	idx := c.r.readIndex()
	head := c.headTree()
	staged = detectRenames(diffMaps(head, idx))
	wt := c.r.worktree(idx)
	for _, ch := range diffMaps(idx, wt) {
		if ch.kind == 'A' {
			untracked = append(untracked, ch.path)
			continue
		}
		unstaged = append(unstaged, ch)
	}
	return
}

// collapseUntracked shows an untracked directory as "dir/" when nothing in
// it is tracked, as git does by default.
func (c *ctx) collapseUntracked(paths []string) []string {
	idx := c.r.readIndex()
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		show := p
		parts := strings.Split(p, "/")
		for i := 1; i < len(parts); i++ {
			d := strings.Join(parts[:i], "/")
			if !hasTrackedUnder(idx, d) {
				show = d + "/"
				break
			}
		}
		if !seen[show] {
			seen[show] = true
			out = append(out, show)
		}
	}
	sort.Strings(out)
	return out
}

func (c *ctx) relPath(p string) string {
	cwd := c.inv.Dir
	abs := c.r.abs(p)
	if cwd == c.r.root {
		return p
	}
	return relTo(cwd, abs)
}

func relTo(from, to string) string {
	f := strings.Split(strings.Trim(from, "/"), "/")
	t := strings.Split(strings.Trim(to, "/"), "/")
	n := 0
	for n < len(f) && n < len(t) && f[n] == t[n] {
		n++
	}
	var parts []string
	for i := n; i < len(f); i++ {
		parts = append(parts, "..")
	}
	parts = append(parts, t[n:]...)
	return strings.Join(parts, "/")
}

func (c *ctx) printShortStatus(withBranch bool) {
	staged, unstaged, untracked := c.statusSets()
	if withBranch {
		br := c.r.branch()
		if c.r.head() == "" {
			fmt.Fprintf(c.out, "## No commits yet on %s\n", br)
		} else {
			fmt.Fprintf(c.out, "## %s\n", br)
		}
	}
	codes := map[string][2]byte{}
	var paths []string
	for _, ch := range staged {
		v := codes[ch.path]
		v[0] = ch.kind
		if v[1] == 0 {
			v[1] = ' '
		}
		codes[ch.path] = v
	}
	for _, ch := range unstaged {
		v := codes[ch.path]
		if v[0] == 0 {
			v[0] = ' '
		}
		v[1] = ch.kind
		codes[ch.path] = v
	}
	from := map[string]string{}
	for _, ch := range staged {
		if ch.kind == 'R' {
			from[ch.path] = ch.from
		}
	}
	for p := range codes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		v := codes[p]
		if f, ok := from[p]; ok {
			fmt.Fprintf(c.out, "%c%c %s -> %s\n", v[0], v[1], c.relPath(f), c.relPath(p))
			continue
		}
		fmt.Fprintf(c.out, "%c%c %s\n", v[0], v[1], c.relPath(p))
	}
	for _, p := range c.collapseUntracked(untracked) {
		fmt.Fprintf(c.out, "?? %s\n", c.relPath(p))
	}
}

func (c *ctx) printStatus(full, forCommit bool) {
	staged, unstaged, untracked := c.statusSets()
	br := c.r.branch()
	if br != "" {
		fmt.Fprintf(c.out, "On branch %s\n", br)
	} else {
		fmt.Fprintf(c.out, "HEAD detached at %s\n", c.r.head()[:7])
	}
	initial := c.r.head() == ""
	blank := false
	section := func() {
		if blank {
			fmt.Fprint(c.out, "\n")
		}
		blank = true
	}
	if initial {
		fmt.Fprint(c.out, "\nNo commits yet\n")
		blank = true
	}
	if c.r.readRef("MERGE_HEAD") != "" {
		fmt.Fprint(c.out, "You have unmerged paths.\n  (fix conflicts and run \"git commit\")\n  (use \"git merge --abort\" to abort the merge)\n")
	}
	word := map[byte]string{'A': "new file:   ", 'M': "modified:   ", 'D': "deleted:    ", 'R': "renamed:    "}
	if len(staged) > 0 {
		section()
		fmt.Fprint(c.out, "Changes to be committed:\n")
		if initial {
			fmt.Fprint(c.out, "  (use \"git rm --cached <file>...\" to unstage)\n")
		} else {
			fmt.Fprint(c.out, "  (use \"git restore --staged <file>...\" to unstage)\n")
		}
		for _, ch := range staged {
			if ch.kind == 'R' {
				fmt.Fprintf(c.out, "\t%s%s -> %s\n", word[ch.kind], c.relPath(ch.from), c.relPath(ch.path))
				continue
			}
			fmt.Fprintf(c.out, "\t%s%s\n", word[ch.kind], c.relPath(ch.path))
		}
	}
	if len(unstaged) > 0 {
		section()
		fmt.Fprint(c.out, "Changes not staged for commit:\n  (use \"git add")
		hasDel := false
		for _, ch := range unstaged {
			if ch.kind == 'D' {
				hasDel = true
			}
		}
		if hasDel {
			fmt.Fprint(c.out, "/rm")
		}
		fmt.Fprint(c.out, " <file>...\" to update what will be committed)\n  (use \"git restore <file>...\" to discard changes in working directory)\n")
		for _, ch := range unstaged {
			fmt.Fprintf(c.out, "\t%s%s\n", word[ch.kind], c.relPath(ch.path))
		}
	}
	ut := c.collapseUntracked(untracked)
	if len(ut) > 0 {
		section()
		fmt.Fprint(c.out, "Untracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n")
		for _, p := range ut {
			fmt.Fprintf(c.out, "\t%s\n", c.relPath(p))
		}
	}
	switch {
	case len(staged) > 0:
		fmt.Fprint(c.out, "\n")
	case len(unstaged) > 0:
		fmt.Fprint(c.out, "\nno changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
	case len(ut) > 0:
		fmt.Fprint(c.out, "\nnothing added to commit but untracked files present (use \"git add\" to track)\n")
	case initial:
		fmt.Fprint(c.out, "\nnothing to commit (create/copy files and use \"git add\" to track)\n")
	default:
		fmt.Fprint(c.out, "nothing to commit, working tree clean\n")
	}
}

// ---- log / show ----

func parseIdent(s string) (name, email string, t time.Time, tz string) {
	lt := strings.LastIndexByte(s, '<')
	gt := strings.LastIndexByte(s, '>')
	if lt < 0 || gt < lt {
		return s, "", time.Time{}, "+0000"
	}
	name = strings.TrimSpace(s[:lt])
	email = s[lt+1 : gt]
	rest := strings.Fields(s[gt+1:])
	if len(rest) >= 2 {
		n, _ := strconv.ParseInt(rest[0], 10, 64)
		tz = rest[1]
		sign := 1
		if strings.HasPrefix(tz, "-") {
			sign = -1
		}
		hh, _ := strconv.Atoi(tz[1:3])
		mm, _ := strconv.Atoi(tz[3:5])
		loc := time.FixedZone(tz, sign*(hh*3600+mm*60))
		t = time.Unix(n, 0).In(loc)
	}
	return
}

func gitDate(t time.Time, tz string) string { return t.Format("Mon Jan 2 15:04:05 2006 ") + tz }

func (c *ctx) walk(start string, n int) []*commit {
	var out []*commit
	seen := map[string]bool{}
	queue := []string{start}
	for len(queue) > 0 && (n < 0 || len(out) < n) {
		// newest first by committer time
		sort.SliceStable(queue, func(i, j int) bool {
			_, _, ti, _ := parseIdent(c.r.readCommit(queue[i]).committer)
			_, _, tj, _ := parseIdent(c.r.readCommit(queue[j]).committer)
			return ti.After(tj)
		})
		id := queue[0]
		queue = queue[1:]
		if seen[id] {
			continue
		}
		seen[id] = true
		cm := c.r.readCommit(id)
		out = append(out, cm)
		for _, p := range cm.parents {
			if !seen[p] {
				queue = append(queue, p)
			}
		}
	}
	return out
}

func (c *ctx) formatCommit(cm *commit, format string) string {
	an, ae, at, atz := parseIdent(cm.author)
	cn, ce, ct, ctz := parseIdent(cm.committer)
	subject, body, _ := strings.Cut(strings.TrimRight(cm.message, "\n"), "\n")
	body = strings.TrimLeft(body, "\n")
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 >= len(format) {
			sb.WriteByte(format[i])
			continue
		}
		i++
		two := ""
		if i+1 < len(format) {
			two = format[i : i+2]
		}
		switch {
		case format[i] == 'H':
			sb.WriteString(cm.id)
		case format[i] == 'h':
			sb.WriteString(cm.id[:7])
		case format[i] == 'T':
			sb.WriteString(cm.tree)
		case format[i] == 't':
			sb.WriteString(cm.tree[:7])
		case format[i] == 'P':
			sb.WriteString(strings.Join(cm.parents, " "))
		case format[i] == 'p':
			var ps []string
			for _, p := range cm.parents {
				ps = append(ps, p[:7])
			}
			sb.WriteString(strings.Join(ps, " "))
		case format[i] == 's':
			sb.WriteString(subject)
		case format[i] == 'b':
			if body != "" {
				sb.WriteString(body + "\n")
			}
		case format[i] == 'B':
			sb.WriteString(cm.message)
		case format[i] == 'n':
			sb.WriteByte('\n')
		case format[i] == '%':
			sb.WriteByte('%')
		case two == "an":
			sb.WriteString(an)
			i++
		case two == "ae":
			sb.WriteString(ae)
			i++
		case two == "ad":
			sb.WriteString(gitDate(at, atz))
			i++
		case two == "at":
			sb.WriteString(strconv.FormatInt(at.Unix(), 10))
			i++
		case two == "ai":
			sb.WriteString(at.Format("2006-01-02 15:04:05 ") + atz)
			i++
		case two == "aI":
			sb.WriteString(at.Format("2006-01-02T15:04:05-07:00"))
			i++
		case two == "as":
			sb.WriteString(at.Format("2006-01-02"))
			i++
		case two == "cn":
			sb.WriteString(cn)
			i++
		case two == "ce":
			sb.WriteString(ce)
			i++
		case two == "cd":
			sb.WriteString(gitDate(ct, ctz))
			i++
		case two == "ct":
			sb.WriteString(strconv.FormatInt(ct.Unix(), 10))
			i++
		case two == "ci":
			sb.WriteString(ct.Format("2006-01-02 15:04:05 ") + ctz)
			i++
		case two == "cI":
			sb.WriteString(ct.Format("2006-01-02T15:04:05-07:00"))
			i++
		default:
			sb.WriteByte('%')
			sb.WriteByte(format[i])
		}
	}
	return sb.String()
}

func (c *ctx) printMedium(cm *commit) {
	fmt.Fprintf(c.out, "commit %s\n", cm.id)
	if len(cm.parents) > 1 {
		var ps []string
		for _, p := range cm.parents {
			ps = append(ps, p[:7])
		}
		fmt.Fprintf(c.out, "Merge: %s\n", strings.Join(ps, " "))
	}
	an, ae, at, atz := parseIdent(cm.author)
	fmt.Fprintf(c.out, "Author: %s <%s>\nDate:   %s\n\n", an, ae, gitDate(at, atz))
	for _, l := range strings.Split(strings.TrimRight(cm.message, "\n"), "\n") {
		if l == "" {
			fmt.Fprintln(c.out)
		} else {
			fmt.Fprintf(c.out, "    %s\n", l)
		}
	}
}

func cmdLog(c *ctx, args []string) int {
	n := -1
	oneline := false
	format := ""
	rev := "HEAD"
	reverse := false
	stat := false
	patch := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--oneline":
			oneline = true
		case a == "-n" && i+1 < len(args):
			n, _ = strconv.Atoi(args[i+1])
			i++
		case strings.HasPrefix(a, "--max-count="):
			n, _ = strconv.Atoi(strings.TrimPrefix(a, "--max-count="))
		case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
			n, _ = strconv.Atoi(a[1:])
		case strings.HasPrefix(a, "-n") && isDigits(a[2:]):
			n, _ = strconv.Atoi(a[2:])
		case strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "--pretty=format:") || strings.HasPrefix(a, "--pretty=tformat:"):
			format = a[strings.IndexAny(a, "=:")+1:]
			if strings.HasPrefix(a, "--pretty=") {
				format = a[strings.Index(a, ":")+1:]
			}
		case a == "--pretty=oneline":
			format = "%H %s"
		case a == "--reverse":
			reverse = true
		case a == "--stat":
			stat = true
		case a == "-p" || a == "--patch":
			patch = true
		case a == "--no-decorate" || a == "--decorate" || a == "--graph" || a == "--all" || a == "--no-color" || a == "--abbrev-commit" || a == "--first-parent":
		case a == "--":
			i = len(args)
		case strings.HasPrefix(a, "-"):
		default:
			rev = a
		}
	}
	start, ok := c.r.resolve(rev)
	if !ok {
		if rev == "HEAD" {
			die(128, "fatal: your current branch '%s' does not have any commits yet", c.r.branch())
		}
		die(128, "fatal: ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", rev)
	}
	commits := c.walk(start, n)
	if reverse {
		for i, j := 0, len(commits)-1; i < j; i, j = i+1, j-1 {
			commits[i], commits[j] = commits[j], commits[i]
		}
	}
	for i, cm := range commits {
		switch {
		case format != "":
			fmt.Fprintln(c.out, c.formatCommit(cm, format))
		case oneline:
			subject, _, _ := strings.Cut(cm.message, "\n")
			fmt.Fprintf(c.out, "%s %s\n", cm.id[:7], subject)
		default:
			if i > 0 {
				fmt.Fprintln(c.out)
			}
			c.printMedium(cm)
		}
		if stat || patch {
			old := map[string]indexEntry{}
			if len(cm.parents) > 0 {
				c.r.flatten(c.r.readCommit(cm.parents[0]).tree, "", old)
			}
			cur := map[string]indexEntry{}
			c.r.flatten(cm.tree, "", cur)
			if !oneline && format == "" {
				fmt.Fprintln(c.out)
			}
			if stat {
				c.printStat(diffMaps(old, cur))
			}
			if patch {
				c.printPatch(diffMaps(old, cur), false)
			}
		}
	}
	return 0
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func cmdShow(c *ctx, args []string) int {
	rev := "HEAD"
	stat, nameOnly, noPatch := false, false, false
	format := ""
	for _, a := range args {
		switch {
		case a == "--stat":
			stat = true
		case a == "--name-only":
			nameOnly = true
		case a == "-s" || a == "--no-patch" || a == "--quiet":
			noPatch = true
		case strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "--pretty=format:"):
			format = a[strings.IndexAny(a, "=:")+1:]
			if strings.HasPrefix(a, "--pretty=") {
				format = a[strings.Index(a, ":")+1:]
			}
		case strings.HasPrefix(a, "-"):
		default:
			rev = a
		}
	}
	if i := strings.IndexByte(rev, ':'); i >= 0 {
		id, ok := c.r.resolve(rev[:i])
		if !ok {
			die(128, "fatal: invalid object name '%s'.", rev[:i])
		}
		files := map[string]indexEntry{}
		c.r.flatten(c.r.readCommit(id).tree, "", files)
		e, ok := files[rev[i+1:]]
		if !ok {
			die(128, "fatal: path '%s' does not exist in '%s'", rev[i+1:], rev[:i])
		}
		c.out.Write([]byte(c.blob(e)))
		return 0
	}
	id, ok := c.r.resolve(rev)
	if !ok {
		die(128, "fatal: ambiguous argument '%s': unknown revision or path not in the working tree.", rev)
	}
	cm := c.r.readCommit(id)
	if format != "" {
		fmt.Fprintln(c.out, c.formatCommit(cm, format))
	} else {
		c.printMedium(cm)
	}
	if noPatch {
		return 0
	}
	old := map[string]indexEntry{}
	if len(cm.parents) > 0 {
		c.r.flatten(c.r.readCommit(cm.parents[0]).tree, "", old)
	}
	cur := map[string]indexEntry{}
	c.r.flatten(cm.tree, "", cur)
	changes := diffMaps(old, cur)
	if len(changes) > 0 && format == "" {
		fmt.Fprintln(c.out)
	}
	switch {
	case stat:
		c.printStat(changes)
	case nameOnly:
		for _, ch := range changes {
			fmt.Fprintln(c.out, ch.path)
		}
	default:
		c.printPatch(changes, false)
	}
	return 0
}

// ---- diff ----

func cmdDiff(c *ctx, args []string) int {
	cached, stat, nameOnly, nameStatus, quiet := false, false, false, false, false
	var revs, paths []string
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash:
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "--cached" || a == "--staged":
			cached = true
		case a == "--stat":
			stat = true
		case a == "--name-only":
			nameOnly = true
		case a == "--name-status":
			nameStatus = true
		case a == "--quiet" || a == "--exit-code":
			quiet = a == "--quiet"
			stat = stat || false
		case strings.HasPrefix(a, "-"):
		default:
			if _, ok := c.r.resolve(strings.Split(a, "..")[0]); ok || strings.Contains(a, "..") {
				revs = append(revs, a)
			} else {
				paths = append(paths, a)
			}
		}
	}
	var from, to map[string]indexEntry
	worktreeSide := false
	switch {
	case len(revs) == 1 && strings.Contains(revs[0], ".."):
		a, b, _ := strings.Cut(revs[0], "..")
		from, to = c.treeOf(a), c.treeOf(b)
	case len(revs) == 2:
		from, to = c.treeOf(revs[0]), c.treeOf(revs[1])
	case len(revs) == 1 && cached:
		from, to = c.treeOf(revs[0]), c.r.readIndex()
	case len(revs) == 1:
		from = c.treeOf(revs[0])
		to = c.r.worktree(c.r.readIndex())
		idx := c.r.readIndex()
		for p := range to {
			if _, ok := idx[p]; !ok {
				if _, ok2 := from[p]; !ok2 {
					delete(to, p)
				}
			}
		}
		worktreeSide = true
	case cached:
		from, to = c.headTree(), c.r.readIndex()
	default:
		idx := c.r.readIndex()
		from = idx
		to = c.r.worktree(idx)
		for p := range to {
			if _, ok := idx[p]; !ok {
				delete(to, p)
			}
		}
		worktreeSide = true
	}
	changes := diffMaps(from, to)
	if len(paths) > 0 {
		specs := c.pathspecs(paths)
		var keep []change
		for _, ch := range changes {
			if underAny(ch.path, specs) {
				keep = append(keep, ch)
			}
		}
		changes = keep
	}
	if worktreeSide {
		for i := range changes {
			if changes[i].hasNew {
				changes[i].new.ID = "wt:" + changes[i].new.ID
			}
		}
	}
	switch {
	case quiet:
	case stat:
		c.printStat(changes)
	case nameOnly:
		for _, ch := range changes {
			fmt.Fprintln(c.out, ch.path)
		}
	case nameStatus:
		for _, ch := range changes {
			fmt.Fprintf(c.out, "%c\t%s\n", ch.kind, ch.path)
		}
	default:
		c.printPatch(changes, worktreeSide)
	}
	if len(changes) > 0 && (quiet || contains(args, "--exit-code")) {
		return 1
	}
	return 0
}

func (c *ctx) treeOf(rev string) map[string]indexEntry {
	id, ok := c.r.resolve(rev)
	if !ok {
		die(128, "fatal: ambiguous argument '%s': unknown revision or path not in the working tree.", rev)
	}
	out := map[string]indexEntry{}
	c.r.flatten(c.r.readCommit(id).tree, "", out)
	return out
}

func (c *ctx) content(ch change, side byte) string {
	e, has := ch.old, ch.hasOld
	if side == 'n' {
		e, has = ch.new, ch.hasNew
	}
	if !has {
		return ""
	}
	if strings.HasPrefix(e.ID, "wt:") {
		return c.worktreeContent(ch.path)
	}
	return c.blob(e)
}

func shortID(id string) string {
	id = strings.TrimPrefix(id, "wt:")
	if id == "" {
		return "0000000"
	}
	return id[:7]
}

func (c *ctx) printPatch(changes []change, wt bool) {
	for _, ch := range changes {
		a, b := c.content(ch, 'o'), c.content(ch, 'n')
		fmt.Fprintf(c.out, "diff --git a/%s b/%s\n", ch.path, ch.path)
		switch ch.kind {
		case 'A':
			fmt.Fprintf(c.out, "new file mode %s\nindex 0000000..%s\n", ch.new.Mode, shortID(ch.new.ID))
		case 'D':
			fmt.Fprintf(c.out, "deleted file mode %s\nindex %s..0000000\n", ch.old.Mode, shortID(ch.old.ID))
		default:
			if ch.old.Mode != ch.new.Mode {
				fmt.Fprintf(c.out, "old mode %s\nnew mode %s\n", ch.old.Mode, ch.new.Mode)
				if strings.TrimPrefix(ch.old.ID, "wt:") == strings.TrimPrefix(ch.new.ID, "wt:") {
					continue
				}
				fmt.Fprintf(c.out, "index %s..%s\n", shortID(ch.old.ID), shortID(ch.new.ID))
			} else {
				fmt.Fprintf(c.out, "index %s..%s %s\n", shortID(ch.old.ID), shortID(ch.new.ID), ch.new.Mode)
			}
		}
		if isBinary(a) || isBinary(b) {
			fmt.Fprintf(c.out, "Binary files %s and %s differ\n", aName(ch), bName(ch))
			continue
		}
		hunks, _, _ := unified(a, b)
		if hunks == "" {
			continue
		}
		fmt.Fprintf(c.out, "--- %s\n+++ %s\n%s", aName(ch), bName(ch), hunks)
	}
}

func aName(ch change) string {
	if !ch.hasOld {
		return "/dev/null"
	}
	return "a/" + ch.path
}

func bName(ch change) string {
	if !ch.hasNew {
		return "/dev/null"
	}
	return "b/" + ch.path
}

func isBinary(s string) bool { return strings.IndexByte(s[:min(len(s), 8000)], 0) >= 0 }

func (c *ctx) printStat(changes []change) {
	if len(changes) == 0 {
		return
	}
	width := 0
	type row struct {
		name     string
		ins, del int
		bin      bool
	}
	var rows []row
	total, ins, del := 0, 0, 0
	maxChange := 0
	for _, ch := range changes {
		a, b := c.content(ch, 'o'), c.content(ch, 'n')
		r := row{name: ch.path}
		if isBinary(a) || isBinary(b) {
			r.bin = true
		} else {
			_, r.ins, r.del = unified(a, b)
		}
		rows = append(rows, r)
		if len(r.name) > width {
			width = len(r.name)
		}
		total++
		ins += r.ins
		del += r.del
		if r.ins+r.del > maxChange {
			maxChange = r.ins + r.del
		}
	}
	numWidth := len(strconv.Itoa(maxChange))
	barMax := 80 - width - numWidth - 4
	if barMax < 10 {
		barMax = 10
	}
	for _, r := range rows {
		if r.bin {
			fmt.Fprintf(c.out, " %-*s | Bin\n", width, r.name)
			continue
		}
		pi, pd := r.ins, r.del
		if maxChange > barMax {
			pi = r.ins * barMax / maxChange
			pd = r.del * barMax / maxChange
			if r.ins > 0 && pi == 0 {
				pi = 1
			}
			if r.del > 0 && pd == 0 {
				pd = 1
			}
		}
		fmt.Fprintf(c.out, " %-*s | %*d %s%s\n", width, r.name, numWidth, r.ins+r.del, strings.Repeat("+", pi), strings.Repeat("-", pd))
	}
	c.out.Write([]byte(summaryLine(total, ins, del)))
}

// ---- branch / checkout / switch / restore ----

func cmdBranch(c *ctx, args []string) int {
	del, force, move, showCurrent := false, false, false, false
	var names []string
	for _, a := range args {
		switch a {
		case "-d", "--delete":
			del = true
		case "-D":
			del, force = true, true
		case "-m", "-M", "--move":
			move = true
		case "--show-current":
			showCurrent = true
		case "-a", "--all", "-l", "--list", "-v", "-vv", "--no-color":
		default:
			names = append(names, a)
		}
	}
	_ = force
	switch {
	case showCurrent:
		if b := c.r.branch(); b != "" {
			fmt.Fprintln(c.out, b)
		}
	case del:
		for _, n := range names {
			if n == c.r.branch() {
				die(1, "error: Cannot delete branch '%s' checked out at '%s'", n, c.r.root)
			}
			id := c.r.readRef("refs/heads/" + n)
			if id == "" {
				die(1, "error: branch '%s' not found.", n)
			}
			c.inv.FS.Remove(command.Join(c.r.git, "refs/heads/"+n))
			fmt.Fprintf(c.out, "Deleted branch %s (was %s).\n", n, id[:7])
		}
	case move:
		old, nw := c.r.branch(), ""
		if len(names) == 1 {
			nw = names[0]
		} else if len(names) == 2 {
			old, nw = names[0], names[1]
		}
		id := c.r.readRef("refs/heads/" + old)
		if id != "" {
			c.r.write("refs/heads/"+nw, []byte(id+"\n"))
			c.inv.FS.Remove(command.Join(c.r.git, "refs/heads/"+old))
		}
		if c.r.branch() == old {
			c.r.write("HEAD", []byte("ref: refs/heads/"+nw+"\n"))
		}
	case len(names) > 0:
		start := "HEAD"
		if len(names) > 1 {
			start = names[1]
		}
		id, ok := c.r.resolve(start)
		if !ok {
			die(128, "fatal: not a valid object name: '%s'", start)
		}
		if c.r.readRef("refs/heads/"+names[0]) != "" {
			die(128, "fatal: a branch named '%s' already exists", names[0])
		}
		c.r.write("refs/heads/"+names[0], []byte(id+"\n"))
	default:
		cur := c.r.branch()
		for _, b := range c.r.branches() {
			if b == cur {
				fmt.Fprintf(c.out, "* %s\n", b)
			} else {
				fmt.Fprintf(c.out, "  %s\n", b)
			}
		}
	}
	return 0
}

// switchTo moves HEAD to target commit updating index and work tree.
func (c *ctx) switchTo(targetID string, force bool) {
	cur := c.headTree()
	target := map[string]indexEntry{}
	if targetID != "" {
		c.r.flatten(c.r.readCommit(targetID).tree, "", target)
	}
	idx := c.r.readIndex()
	wt := c.r.worktree(idx)
	if !force {
		var conflicts []string
		for _, ch := range diffMaps(cur, target) {
			dirtyIdx := idx[ch.path] != cur[ch.path]
			w, inWT := wt[ch.path]
			dirtyWT := inWT && w != idx[ch.path]
			_, tracked := idx[ch.path]
			if dirtyIdx || dirtyWT || (!tracked && inWT && ch.hasNew) {
				conflicts = append(conflicts, ch.path)
			}
		}
		if len(conflicts) > 0 {
			die(1, "error: Your local changes to the following files would be overwritten by checkout:\n\t%s\nPlease commit your changes or stash them before you switch branches.\nAborting", strings.Join(conflicts, "\n\t"))
		}
	}
	for _, ch := range diffMaps(cur, target) {
		switch ch.kind {
		case 'D':
			c.r.removeFile(ch.path)
			delete(idx, ch.path)
		default:
			c.r.checkoutFile(ch.path, ch.new)
			idx[ch.path] = ch.new
		}
	}
	if force {
		for p, e := range target {
			c.r.checkoutFile(p, e)
		}
		for p := range idx {
			if _, ok := target[p]; !ok {
				c.r.removeFile(p)
			}
		}
		idx = map[string]indexEntry{}
		for p, e := range target {
			idx[p] = e
		}
	}
	c.r.writeIndex(idx)
}

func cmdSwitch(c *ctx, args []string) int {
	create := false
	force := false
	var names []string
	for _, a := range args {
		switch a {
		case "-c", "-C", "--create":
			create = true
		case "-f", "--force", "--discard-changes":
			force = true
		case "--detach", "-q", "--quiet":
		default:
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		die(128, "fatal: missing branch or commit argument")
	}
	return c.checkoutBranch(names[0], names[1:], create, force, true)
}

func (c *ctx) checkoutBranch(name string, rest []string, create, force, isSwitch bool) int {
	if create {
		start := "HEAD"
		if len(rest) > 0 {
			start = rest[0]
		}
		if c.r.readRef("refs/heads/"+name) != "" {
			die(128, "fatal: a branch named '%s' already exists", name)
		}
		id, ok := c.r.resolve(start)
		if !ok && start != "HEAD" {
			die(128, "fatal: invalid reference: %s", start)
		}
		if id != c.r.head() {
			c.switchTo(id, force)
		}
		if id != "" {
			c.r.write("refs/heads/"+name, []byte(id+"\n"))
		}
		c.r.write("HEAD", []byte("ref: refs/heads/"+name+"\n"))
		fmt.Fprintf(c.errw, "Switched to a new branch '%s'\n", name)
		return 0
	}
	if id := c.r.readRef("refs/heads/" + name); id != "" {
		if name == c.r.branch() {
			fmt.Fprintf(c.errw, "Already on '%s'\n", name)
			return 0
		}
		c.switchTo(id, force)
		c.r.write("HEAD", []byte("ref: refs/heads/"+name+"\n"))
		fmt.Fprintf(c.errw, "Switched to branch '%s'\n", name)
		return 0
	}
	if isSwitch {
		die(128, "fatal: invalid reference: %s", name)
	}
	id, ok := c.r.resolve(name)
	if !ok {
		return -1
	}
	c.switchTo(id, force)
	c.r.write("HEAD", []byte(id+"\n"))
	fmt.Fprintf(c.errw, "Note: switching to '%s'.\n\nYou are in 'detached HEAD' state.\nHEAD is now at %s %s\n", name, id[:7], strings.SplitN(c.r.readCommit(id).message, "\n", 2)[0])
	return 0
}

func cmdCheckout(c *ctx, args []string) int {
	create, force := false, false
	var names, paths []string
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash:
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "-b" || a == "-B":
			create = true
		case a == "-f" || a == "--force":
			force = true
		case a == "-q" || a == "--quiet" || a == "--detach":
		default:
			names = append(names, a)
		}
	}
	if len(paths) > 0 || (len(names) > 0 && !create && c.r.readRef("refs/heads/"+names[0]) == "" && func() bool { _, ok := c.r.resolve(names[0]); return !ok }()) {
		src := ""
		if len(paths) > 0 && len(names) > 0 {
			src = names[0]
		} else if len(paths) == 0 {
			paths = names
		}
		return c.restorePaths(paths, src, false, true)
	}
	if len(names) == 0 {
		return 0
	}
	st := c.checkoutBranch(names[0], names[1:], create, force, false)
	if st == -1 {
		die(1, "error: pathspec '%s' did not match any file(s) known to git", names[0])
	}
	return st
}

func (c *ctx) restorePaths(paths []string, source string, staged, worktree bool) int {
	idx := c.r.readIndex()
	var from map[string]indexEntry
	if source != "" {
		from = c.treeOf(source)
	} else if staged {
		from = c.headTree()
	} else {
		from = idx
	}
	specs := c.pathspecs(paths)
	for _, s := range specs {
		hit := false
		for p, e := range from {
			if underAny(p, []string{s}) {
				hit = true
				if staged {
					idx[p] = e
				}
				if worktree {
					c.r.checkoutFile(p, e)
					if source != "" {
						idx[p] = e
					}
				}
			}
		}
		if staged {
			for p := range idx {
				if _, ok := from[p]; !ok && underAny(p, []string{s}) {
					delete(idx, p)
					hit = true
				}
			}
		}
		if !hit {
			die(1, "error: pathspec '%s' did not match any file(s) known to git", s)
		}
	}
	c.r.writeIndex(idx)
	return 0
}

func cmdRestore(c *ctx, args []string) int {
	staged, worktree := false, false
	source := ""
	var paths []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--staged" || a == "-S":
			staged = true
		case a == "--worktree" || a == "-W":
			worktree = true
		case a == "-s" || a == "--source":
			if i+1 < len(args) {
				source = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--source="):
			source = strings.TrimPrefix(a, "--source=")
		case a == "--":
		default:
			paths = append(paths, a)
		}
	}
	if !staged {
		worktree = true
	}
	if len(paths) == 0 {
		die(128, "fatal: you must specify path(s) to restore")
	}
	return c.restorePaths(paths, source, staged, worktree)
}

// ---- reset ----

func cmdReset(c *ctx, args []string) int {
	mode := "mixed"
	rev := "HEAD"
	quiet := false
	var paths []string
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash:
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "--soft" || a == "--mixed" || a == "--hard":
			mode = a[2:]
		case a == "-q" || a == "--quiet":
			quiet = true
		default:
			if _, ok := c.r.resolve(a); ok {
				rev = a
			} else {
				paths = append(paths, a)
			}
		}
	}
	if len(paths) > 0 {
		idx := c.r.readIndex()
		var tree map[string]indexEntry
		if c.r.head() == "" {
			tree = map[string]indexEntry{}
		} else {
			tree = c.treeOf(rev)
		}
		for _, s := range c.pathspecs(paths) {
			for p := range idx {
				if underAny(p, []string{s}) {
					if e, ok := tree[p]; ok {
						idx[p] = e
					} else {
						delete(idx, p)
					}
				}
			}
			for p, e := range tree {
				if underAny(p, []string{s}) {
					idx[p] = e
				}
			}
		}
		c.r.writeIndex(idx)
		return 0
	}
	id, ok := c.r.resolve(rev)
	if !ok {
		if rev == "HEAD" && c.r.head() == "" {
			c.r.writeIndex(map[string]indexEntry{})
			return 0
		}
		die(128, "fatal: ambiguous argument '%s': unknown revision or path not in the working tree.", rev)
	}
	if old := c.r.head(); old != "" {
		c.r.write("ORIG_HEAD", []byte(old+"\n"))
	}
	target := map[string]indexEntry{}
	c.r.flatten(c.r.readCommit(id).tree, "", target)
	switch mode {
	case "hard":
		c.switchTo(id, true)
		c.r.setHead(id)
		if !quiet {
			fmt.Fprintf(c.out, "HEAD is now at %s %s\n", id[:7], strings.SplitN(c.r.readCommit(id).message, "\n", 2)[0])
		}
	case "mixed":
		c.r.setHead(id)
		c.r.writeIndex(target)
		var unstaged []string
		idx := c.r.readIndex()
		for _, ch := range diffMaps(idx, c.r.worktree(idx)) {
			if ch.kind != 'A' {
				unstaged = append(unstaged, fmt.Sprintf("%c\t%s", ch.kind, ch.path))
			}
		}
		if len(unstaged) > 0 && !quiet {
			fmt.Fprintf(c.out, "Unstaged changes after reset:\n%s\n", strings.Join(unstaged, "\n"))
		}
	case "soft":
		c.r.setHead(id)
	}
	c.inv.FS.Remove(command.Join(c.r.git, "MERGE_HEAD"))
	return 0
}

// ---- tag ----

func cmdTag(c *ctx, args []string) int {
	annotate, del := false, false
	msg := ""
	var names []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-a", "--annotate":
			annotate = true
		case "-m", "--message":
			if i+1 < len(args) {
				msg = args[i+1]
				annotate = true
				i++
			}
		case "-d", "--delete":
			del = true
		case "-l", "--list", "-n":
		default:
			names = append(names, a)
		}
	}
	switch {
	case del:
		for _, n := range names {
			id := c.r.readRef("refs/tags/" + n)
			if id == "" {
				die(1, "error: tag '%s' not found.", n)
			}
			c.inv.FS.Remove(command.Join(c.r.git, "refs/tags/"+n))
			fmt.Fprintf(c.out, "Deleted tag '%s' (was %s)\n", n, id[:7])
		}
	case len(names) == 0:
		for _, t := range c.r.tags() {
			fmt.Fprintln(c.out, t)
		}
	default:
		target := "HEAD"
		if len(names) > 1 {
			target = names[1]
		}
		id, ok := c.r.resolve(target)
		if !ok {
			die(128, "fatal: Failed to resolve '%s' as a valid ref.", target)
		}
		if c.r.readRef("refs/tags/"+names[0]) != "" {
			die(128, "fatal: tag '%s' already exists", names[0])
		}
		if annotate {
			body := fmt.Sprintf("object %s\ntype commit\ntag %s\ntagger %s\n\n%s", id, names[0], c.r.ident("COMMITTER"), cleanupMessage(msg))
			id = c.r.writeObject("tag", []byte(body))
		}
		c.r.write("refs/tags/"+names[0], []byte(id+"\n"))
	}
	return 0
}

// ---- plumbing ----

func cmdRevParse(c *ctx, args []string) int {
	short := 0
	abbrev := false
	for _, a := range args {
		switch {
		case a == "--show-toplevel":
			fmt.Fprintln(c.out, c.r.root)
		case a == "--git-dir":
			if c.inv.Dir == c.r.root {
				fmt.Fprintln(c.out, ".git")
			} else {
				fmt.Fprintln(c.out, c.r.git)
			}
		case a == "--is-inside-work-tree":
			fmt.Fprintln(c.out, "true")
		case a == "--is-bare-repository":
			fmt.Fprintln(c.out, "false")
		case a == "--show-prefix":
			p := strings.TrimPrefix(strings.TrimPrefix(c.inv.Dir, c.r.root), "/")
			if p != "" {
				p += "/"
			}
			fmt.Fprintln(c.out, p)
		case a == "--short":
			short = 7
		case strings.HasPrefix(a, "--short="):
			short, _ = strconv.Atoi(strings.TrimPrefix(a, "--short="))
		case a == "--abbrev-ref":
			abbrev = true
		case a == "--verify" || a == "-q" || a == "--quiet":
		case strings.HasPrefix(a, "-"):
		default:
			if abbrev && a == "HEAD" {
				if b := c.r.branch(); b != "" {
					fmt.Fprintln(c.out, b)
				} else {
					fmt.Fprintln(c.out, "HEAD")
				}
				continue
			}
			rev := strings.TrimSuffix(a, "^{commit}")
			wantTree := strings.HasSuffix(rev, "^{tree}")
			rev = strings.TrimSuffix(rev, "^{tree}")
			id, ok := c.r.resolve(rev)
			if ok && wantTree {
				id = c.r.readCommit(id).tree
			}
			if !ok {
				fmt.Fprintln(c.out, a)
				die(128, "fatal: ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", a)
			}
			if abbrev {
				fmt.Fprintln(c.out, a)
				continue
			}
			if short > 0 {
				id = id[:min(short, 40)]
			}
			fmt.Fprintln(c.out, id)
		}
	}
	return 0
}

func cmdLsFiles(c *ctx, args []string) int {
	idx := c.r.readIndex()
	others, stage := false, false
	for _, a := range args {
		switch a {
		case "-o", "--others":
			others = true
		case "-s", "--stage":
			stage = true
		}
	}
	if others {
		wt := c.r.worktree(idx)
		var ps []string
		for p := range wt {
			if _, ok := idx[p]; !ok {
				ps = append(ps, p)
			}
		}
		sort.Strings(ps)
		for _, p := range ps {
			fmt.Fprintln(c.out, c.relPath(p))
		}
		return 0
	}
	var ps []string
	for p := range idx {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		if stage {
			fmt.Fprintf(c.out, "%s %s 0\t%s\n", idx[p].Mode, idx[p].ID, c.relPath(p))
		} else {
			fmt.Fprintln(c.out, c.relPath(p))
		}
	}
	return 0
}

func cmdHashObject(c *ctx, args []string) int {
	write := false
	for _, a := range args {
		if a == "-w" {
			write = true
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		data, err := c.inv.FS.ReadFile(command.Join(c.inv.Dir, a))
		if err != nil {
			die(128, "fatal: could not open '%s' for reading: %s", a, command.Message(err))
		}
		if write && c.r != nil {
			fmt.Fprintln(c.out, c.r.writeObject("blob", data))
		} else {
			fmt.Fprintln(c.out, hashObject("blob", data))
		}
	}
	return 0
}

func cmdCatFile(c *ctx, args []string) int {
	if len(args) != 2 {
		die(129, "usage: git cat-file (-t | -s | -e | -p | <type>) <object>")
	}
	id, ok := c.r.resolve(args[1])
	if !ok {
		if e := c.r.expandPrefix(args[1]); e != "" {
			id = e
		} else {
			die(128, "fatal: Not a valid object name %s", args[1])
		}
	}
	typ, data := c.r.readObject(id)
	switch args[0] {
	case "-t":
		fmt.Fprintln(c.out, typ)
	case "-s":
		fmt.Fprintln(c.out, len(data))
	case "-e":
	case "-p":
		if typ == "tree" {
			for _, e := range c.r.readTree(id) {
				t := "blob"
				if e.mode == "40000" {
					t = "tree"
				}
				fmt.Fprintf(c.out, "%06s %s %s\t%s\n", e.mode, t, e.id, e.name)
			}
			return 0
		}
		c.out.Write(data)
	default:
		c.out.Write(data)
	}
	return 0
}

func cmdRevList(c *ctx, args []string) int {
	rev := "HEAD"
	count := false
	for _, a := range args {
		if a == "--count" {
			count = true
		} else if !strings.HasPrefix(a, "-") {
			rev = a
		}
	}
	id, ok := c.r.resolve(rev)
	if !ok {
		die(128, "fatal: ambiguous argument '%s'", rev)
	}
	cs := c.walk(id, -1)
	if count {
		fmt.Fprintln(c.out, len(cs))
		return 0
	}
	for _, cm := range cs {
		fmt.Fprintln(c.out, cm.id)
	}
	return 0
}

func cmdLsTree(c *ctx, args []string) int {
	rec, nameOnly := false, false
	rev := ""
	for _, a := range args {
		switch a {
		case "-r":
			rec = true
		case "--name-only":
			nameOnly = true
		default:
			rev = a
		}
	}
	id, ok := c.r.resolve(rev)
	if !ok {
		die(128, "fatal: Not a valid object name %s", rev)
	}
	tree := c.r.readCommit(id).tree
	var walk func(t, prefix string)
	walk = func(t, prefix string) {
		for _, e := range c.r.readTree(t) {
			if rec && e.mode == "40000" {
				walk(e.id, prefix+e.name+"/")
				continue
			}
			typ := "blob"
			if e.mode == "40000" {
				typ = "tree"
			}
			if nameOnly {
				fmt.Fprintln(c.out, prefix+e.name)
			} else {
				fmt.Fprintf(c.out, "%06s %s %s\t%s\n", e.mode, typ, e.id, prefix+e.name)
			}
		}
	}
	walk(tree, "")
	return 0
}
