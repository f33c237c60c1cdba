package git

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

func (c *ctx) ancestors(id string) map[string]bool {
	seen := map[string]bool{}
	q := []string{id}
	for len(q) > 0 {
		x := q[0]
		q = q[1:]
		if x == "" || seen[x] {
			continue
		}
		seen[x] = true
		c.r.charge(64)
		q = append(q, c.r.readCommit(x).parents...)
	}
	return seen
}

func (c *ctx) mergeBase(a, b string) string {
	anc := c.ancestors(a)
	q := []string{b}
	seen := map[string]bool{}
	for len(q) > 0 {
		x := q[0]
		q = q[1:]
		if seen[x] {
			continue
		}
		seen[x] = true
		if anc[x] {
			return x
		}
		q = append(q, c.r.readCommit(x).parents...)
	}
	return ""
}

const unmergedFile = "shellsim-unmerged.json"

func (c *ctx) unmerged() []string {
	var out []string
	if data, err := c.r.read(unmergedFile); err == nil {
		json.Unmarshal(data, &out)
	}
	return out
}

func (c *ctx) setUnmerged(ps []string) {
	if len(ps) == 0 {
		c.inv.FS.Remove(command.Join(c.r.git, unmergedFile))
		return
	}
	data, _ := json.Marshal(ps)
	c.r.write(unmergedFile, data)
}

func cmdMerge(c *ctx, args []string) int {
	noFF, ffOnly, abort := false, false, false
	msg := ""
	var names []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--no-ff":
			noFF = true
		case "--ff-only":
			ffOnly = true
		case "--abort":
			abort = true
		case "-m":
			if i+1 < len(args) {
				msg = args[i+1]
				i++
			}
		case "--no-edit", "--ff", "-q", "--quiet", "--no-verify", "--commit":
		default:
			names = append(names, a)
		}
	}
	if abort {
		if c.r.readRef("MERGE_HEAD") == "" {
			die(128, "fatal: There is no merge to abort (MERGE_HEAD missing).")
		}
		c.switchTo(c.r.head(), true)
		c.inv.FS.Remove(command.Join(c.r.git, "MERGE_HEAD"))
		c.inv.FS.Remove(command.Join(c.r.git, "MERGE_MSG"))
		c.setUnmerged(nil)
		return 0
	}
	if len(names) != 1 {
		die(128, "fatal: No remote for the current branch.")
	}
	theirs, ok := c.r.resolve(names[0])
	if !ok {
		die(1, "merge: %s - not something we can merge", names[0])
	}
	ours := c.r.head()
	if ours == theirs || c.ancestors(ours)[theirs] {
		fmt.Fprintln(c.out, "Already up to date.")
		return 0
	}
	if ours == "" || (c.ancestors(theirs)[ours] && !noFF) {
		old := c.headTree()
		fmt.Fprintf(c.out, "Updating %s..%s\nFast-forward\n", shortID(ours), theirs[:7])
		c.switchTo(theirs, false)
		c.r.setHead(theirs)
		if ours != "" {
			c.r.write("ORIG_HEAD", []byte(ours+"\n"))
		}
		changes := diffMaps(old, c.headTree())
		c.printStat(changes)
		c.printModes(changes)
		return 0
	}
	if ffOnly {
		die(128, "fatal: Not possible to fast-forward, aborting.")
	}
	base := c.mergeBase(ours, theirs)
	bt, ot, tt := map[string]indexEntry{}, c.headTree(), map[string]indexEntry{}
	if base != "" {
		c.r.flatten(c.r.readCommit(base).tree, "", bt)
	}
	c.r.flatten(c.r.readCommit(theirs).tree, "", tt)
	idx := c.r.readIndex()
	wt := c.r.worktree(idx)
	if len(diffMaps(ot, idx)) > 0 {
		die(128, "error: Your local changes to the following files would be overwritten by merge:\n\tPlease commit your changes or stash them before you merge.\nAborting")
	}
	paths := map[string]bool{}
	for _, m := range []map[string]indexEntry{bt, ot, tt} {
		for p := range m {
			paths[p] = true
		}
	}
	var sorted []string
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var conflicts []string
	result := map[string]indexEntry{}
	branchName := names[0]
	for _, p := range sorted {
		b, inB := bt[p]
		o, inO := ot[p]
		t, inT := tt[p]
		switch {
		case inO && inT && o == t:
			result[p] = o
		case inB && inO && inT && b == o:
			result[p] = t
		case inB && inO && inT && b == t:
			result[p] = o
		case !inB && inO && !inT:
			result[p] = o
		case !inB && !inO && inT:
			result[p] = t
		case inB && !inO && inT && b == t, inB && inO && !inT && b == o:
			// deleted on one side, unchanged on the other
		case inB && !inO && !inT:
		default:
			if inO && inT {
				fmt.Fprintf(c.out, "Auto-merging %s\n", p)
				merged, conflict := merge3(c.blob(b), c.blob(o), c.blob(t), "HEAD", branchName)
				id := c.r.writeObject("blob", []byte(merged))
				e := indexEntry{Path: p, ID: id, Mode: o.Mode}
				result[p] = e
				if conflict {
					kind := "content"
					if !inB {
						kind = "add/add"
					}
					fmt.Fprintf(c.out, "CONFLICT (%s): Merge conflict in %s\n", kind, p)
					conflicts = append(conflicts, p)
				}
				continue
			}
			// modify/delete conflict: keep the modified side
			if inO {
				result[p] = o
			} else {
				result[p] = t
			}
			fmt.Fprintf(c.out, "CONFLICT (modify/delete): %s deleted in one branch and modified in the other.\n", p)
			conflicts = append(conflicts, p)
		}
	}
	_ = wt
	// write work tree and index
	for _, ch := range diffMaps(ot, result) {
		if ch.kind == 'D' {
			c.r.removeFile(ch.path)
		} else {
			c.r.checkoutFile(ch.path, ch.new)
		}
	}
	head := c.r.branch()
	if msg == "" {
		msg = fmt.Sprintf("Merge branch '%s'", branchName)
		if head != "" && head != "main" && head != "master" {
			msg += " into " + head
		}
	}
	if len(conflicts) > 0 {
		newIdx := map[string]indexEntry{}
		for p, e := range result {
			newIdx[p] = e
		}
		for _, p := range conflicts {
			if o, ok := ot[p]; ok {
				newIdx[p] = o
			}
		}
		c.r.writeIndex(newIdx)
		c.setUnmerged(conflicts)
		c.r.write("MERGE_HEAD", []byte(theirs+"\n"))
		c.r.write("MERGE_MSG", []byte(msg+"\n"))
		fmt.Fprintln(c.out, "Automatic merge failed; fix conflicts and then commit the result.")
		return 1
	}
	c.r.writeIndex(result)
	tree := c.r.writeTree(result)
	body := fmt.Sprintf("tree %s\nparent %s\nparent %s\nauthor %s\ncommitter %s\n\n%s\n", tree, ours, theirs, c.r.ident("AUTHOR"), c.r.ident("COMMITTER"), msg)
	id := c.r.writeObject("commit", []byte(body))
	c.r.write("ORIG_HEAD", []byte(ours+"\n"))
	c.r.setHead(id)
	fmt.Fprintln(c.out, "Merge made by the 'ort' strategy.")
	changes := diffMaps(ot, result)
	c.printStat(changes)
	c.printModes(changes)
	return 0
}

func (c *ctx) printModes(changes []change) {
	for _, ch := range changes {
		switch ch.kind {
		case 'A':
			fmt.Fprintf(c.out, " create mode %s %s\n", ch.new.Mode, ch.path)
		case 'D':
			fmt.Fprintf(c.out, " delete mode %s %s\n", ch.old.Mode, ch.path)
		}
	}
}

// ---- stash ----

type stashEntry struct {
	Head     string                `json:"head"`
	Branch   string                `json:"branch"`
	Message  string                `json:"message"`
	Index    map[string]indexEntry `json:"index"`
	Worktree map[string]indexEntry `json:"worktree"`
	ID       string                `json:"id"`
}

const stashFile = "shellsim-stash.json"

func (c *ctx) stashes() []stashEntry {
	var out []stashEntry
	if data, err := c.r.read(stashFile); err == nil {
		json.Unmarshal(data, &out)
	}
	return out
}

func (c *ctx) saveStashes(s []stashEntry) {
	data, _ := json.Marshal(s)
	c.r.write(stashFile, data)
}

func cmdStash(c *ctx, args []string) int {
	sub := "push"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "push", "save":
		head := c.r.head()
		if head == "" {
			die(1, "You do not have the initial commit yet")
		}
		idx := c.r.readIndex()
		wt := c.r.worktree(idx)
		tracked := map[string]indexEntry{}
		for p := range idx {
			if e, ok := wt[p]; ok {
				c.r.addFile(map[string]indexEntry{}, p)
				tracked[p] = e
			}
		}
		if len(diffMaps(c.headTree(), idx)) == 0 && len(diffMaps(idx, tracked)) == 0 && len(idx) == len(tracked) {
			fmt.Fprintln(c.out, "No local changes to save")
			return 0
		}
		cm := c.r.readCommit(head)
		subject := strings.SplitN(cm.message, "\n", 2)[0]
		msg := fmt.Sprintf("WIP on %s: %s %s", c.r.branch(), head[:7], subject)
		for i := 0; i < len(args); i++ {
			if (args[i] == "-m" || args[i] == "--message") && i+1 < len(args) {
				msg = fmt.Sprintf("On %s: %s", c.r.branch(), args[i+1])
			}
		}
		e := stashEntry{Head: head, Branch: c.r.branch(), Message: msg, Index: idx, Worktree: tracked}
		e.ID = hashObject("commit", []byte(fmt.Sprintf("%v", e)))
		s := append([]stashEntry{e}, c.stashes()...)
		c.saveStashes(s)
		c.switchTo(head, true)
		fmt.Fprintf(c.out, "Saved working directory and index state %s\n", msg)
	case "list":
		for i, e := range c.stashes() {
			fmt.Fprintf(c.out, "stash@{%d}: %s\n", i, e.Message)
		}
	case "pop", "apply":
		s := c.stashes()
		if len(s) == 0 {
			die(1, "error: No stash entries found.")
		}
		e := s[0]
		cur := c.r.readIndex()
		for p, w := range e.Worktree {
			c.r.checkoutFile(p, w)
		}
		for p, ie := range e.Index {
			cur[p] = ie
		}
		c.r.writeIndex(cur)
		c.printStatus(true, false)
		if sub == "pop" {
			c.saveStashes(s[1:])
			fmt.Fprintf(c.out, "Dropped refs/stash@{0} (%s)\n", e.ID)
		}
	case "drop":
		s := c.stashes()
		if len(s) == 0 {
			die(1, "error: No stash entries found.")
		}
		fmt.Fprintf(c.out, "Dropped refs/stash@{0} (%s)\n", s[0].ID)
		c.saveStashes(s[1:])
	case "clear":
		c.saveStashes(nil)
	default:
		die(129, "usage: git stash list | push | pop | apply | drop | clear")
	}
	return 0
}
