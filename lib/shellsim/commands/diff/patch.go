package diff

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// patch - apply a unified diff to files
//
//	patch [-p NUM] [-i PATCHFILE] [-R] [-N] [--dry-run] [-s] [-E] [-d DIR] [ORIGFILE [PATCHFILE]]
//
// Hunks are matched at their line, then at growing offsets, then with
// fuzz 1 and 2 (context lines dropped at the ends), reported as GNU patch
// reports them. Unlike GNU patch the whole patch is atomic: if any hunk of
// any file fails, no file is changed; reject files are not written.
func init() { command.Register("patch", command.Partial, Patch) }

var patchSpec = spec{short: "p:i:RNsEfd:tuo:bl", long: map[string]long{
	"strip": {"p", true}, "input": {"i", true}, "reverse": {"R", false}, "forward": {"N", false},
	"dry-run": {"dry-run", false}, "silent": {"s", false}, "quiet": {"s", false},
	"remove-empty-files": {"E", false}, "force": {"f", false}, "directory": {"d", true},
	"batch": {"t", false}, "unified": {"u", false}, "output": {"o", true}, "backup": {"b", false},
	"ignore-whitespace": {"l", false}, "no-backup-if-mismatch": {"no-backup-if-mismatch", false},
}}

type hunkLine struct {
	kind byte // ' ', '-', '+'
	text string
}

type hunk struct {
	oldStart, oldLen, newStart, newLen int
	lines                              []hunkLine
}

type filePatch struct {
	oldName, newName string
	header           []string // lines shown when the file cannot be found
	hunks            []*hunk
	startLine        int
}

// Patch runs patch.
func Patch(inv *command.Invocation) int {
	if inv.Sys.Charge(100) != nil {
		return 2
	}
	opts, args, ok := parse(inv, patchSpec)
	if !ok {
		return 2
	}
	strip := -1
	var input string
	var reverse, forward, dry, silent, removeEmpty bool
	dir := inv.Dir
	for _, o := range opts {
		switch o.key {
		case "p":
			n, err := strconv.Atoi(o.val)
			if err != nil || n < 0 {
				fmt.Fprintf(inv.Stderr, "patch: **** strip count %s is not a number\n", o.val)
				return 2
			}
			strip = n
		case "i":
			input = o.val
		case "R":
			reverse = true
		case "N":
			forward = true
		case "dry-run":
			dry = true
		case "s":
			silent = true
		case "E":
			removeEmpty = true
		case "d":
			dir = inv.Abs(o.val)
		case "f", "t", "u", "no-backup-if-mismatch":
		default:
			flag := map[string]string{"o": "-o", "b": "-b", "l": "-l"}[o.key]
			inv.Sys.Partial("patch " + flag)
			fmt.Fprintf(inv.Stderr, "patch: option %s is not supported here\n", flag)
			return 2
		}
	}
	var target string
	if len(args) > 0 {
		target = args[0]
	}
	if len(args) > 1 {
		input = args[1]
	}
	var data []byte
	var err error
	if input == "" || input == "-" {
		data, err = io.ReadAll(inv.Stdin)
	} else {
		data, err = inv.FS.ReadFile(inv.Abs(input))
	}
	if err != nil {
		fmt.Fprintf(inv.Stderr, "patch: **** Can't open patch file %s : %s\n", input, command.Message(err))
		return 2
	}
	if inv.Sys.Charge(int64(len(data))) != nil {
		return 2
	}
	if len(data) > 8<<20 {
		fmt.Fprintf(inv.Stderr, "patch: **** patch input is too large\n")
		return 2
	}
	patches, perr := parsePatch(string(data))
	if perr != "" {
		fmt.Fprintf(inv.Stderr, "patch: **** %s\n", perr)
		return 2
	}
	if len(patches) == 0 {
		fmt.Fprintf(inv.Stderr, "patch: **** Only garbage was found in the patch input.\n")
		return 2
	}
	var out bytes.Buffer
	say := func(format string, a ...any) {
		if !silent {
			fmt.Fprintf(&out, format, a...)
		}
	}
	type result struct {
		path    string
		content []byte
		remove  bool
		create  bool
		orig    []byte
	}
	var results []result
	status := 0
	for _, fp := range patches {
		if reverse {
			fp.oldName, fp.newName = fp.newName, fp.oldName
			for _, h := range fp.hunks {
				h.oldStart, h.newStart = h.newStart, h.oldStart
				h.oldLen, h.newLen = h.newLen, h.oldLen
				for i := range h.lines {
					switch h.lines[i].kind {
					case '-':
						h.lines[i].kind = '+'
					case '+':
						h.lines[i].kind = '-'
					}
				}
			}
		}
		name := target
		if name == "" {
			name = chooseName(inv, dir, fp, strip)
		}
		creating := fp.oldName == "/dev/null" || (len(fp.hunks) == 1 && fp.hunks[0].oldStart == 0 && fp.hunks[0].oldLen == 0)
		deleting := fp.newName == "/dev/null"
		p := command.Join(dir, name)
		if name == "" {
			fmt.Fprintf(&out, "can't find file to patch at input line %d\n", fp.startLine)
			fmt.Fprintf(&out, "Perhaps you used the wrong -p or --strip option?\n")
			fmt.Fprintf(&out, "The text leading up to this was:\n--------------------------\n")
			for _, h := range fp.header {
				fmt.Fprintf(&out, "|%s\n", h)
			}
			fmt.Fprintf(&out, "--------------------------\nFile to patch: \nSkip this patch? [y] \nSkipping patch.\n")
			fmt.Fprintf(&out, "%d out of %d hunk%s ignored\n", len(fp.hunks), len(fp.hunks), plural(len(fp.hunks)))
			status = 1
			continue
		}
		var orig []byte
		exists := false
		if fi, err := inv.FS.Stat(p); err == nil {
			if fi.IsDir() {
				fmt.Fprintf(inv.Stderr, "patch: **** %s: Is a directory\n", name)
				return 2
			}
			orig, err = inv.FS.ReadFile(p)
			if err != nil {
				fmt.Fprintf(inv.Stderr, "patch: **** Can't open file %s : %s\n", name, command.Message(err))
				return 2
			}
			exists = true
		}
		if inv.Sys.Charge(int64(len(orig))) != nil {
			return 2
		}
		if dry {
			say("checking file %s\n", name)
		} else {
			say("patching file %s\n", name)
		}
		if creating && exists && len(orig) > 0 {
			if forward {
				say("The next patch would create the file %s,\nwhich already exists!  Skipping patch.\n", name)
			} else {
				say("The next patch would create the file %s,\nwhich already exists!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n", name)
			}
			say("%d out of %d hunk%s ignored\n", len(fp.hunks), len(fp.hunks), plural(len(fp.hunks)))
			status = 1
			continue
		}
		lines := splitLines(orig)
		failed := 0
		delta, lastOffset := 0, 0
		for n, h := range fp.hunks {
			oldL, newL := h.side('-'), h.side('+')
			expected := h.oldStart - 1 + delta
			if h.oldLen == 0 {
				expected = h.oldStart + delta
			}
			at, fuzz, found := locate(lines, oldL, h, expected+lastOffset, n == 0)
			if !found && n == 0 {
				// A patch that is already applied matches backwards.
				if _, _, rev := locate(lines, newL, h, expected+lastOffset, true); rev && len(newL) > 0 {
					if forward {
						say("Reversed (or previously applied) patch detected!  Skipping patch.\n")
					} else {
						say("Reversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n")
					}
					say("%d out of %d hunk%s ignored\n", len(fp.hunks), len(fp.hunks), plural(len(fp.hunks)))
					failed = -1
					break
				}
			}
			if !found {
				say("Hunk #%d FAILED at %d.\n", n+1, max(expected+1, 1))
				failed++
				continue
			}
			if inv.Sys.Charge(int64(len(h.lines)*4)) != nil {
				return 2
			}
			cut := len(oldL) - fuzz.head - fuzz.tail
			repl := newL[fuzz.head : len(newL)-fuzz.tail]
			next := make([]string, 0, len(lines)-cut+len(repl))
			next = append(next, lines[:at]...)
			next = append(next, repl...)
			next = append(next, lines[at+cut:]...)
			lines = next
			offset := at - fuzz.head - (expected + 0)
			if h.oldLen == 0 {
				offset = at - expected
			}
			lastOffset = offset
			line := at + 1 - fuzz.head
			switch {
			case fuzz.n > 0 && offset != 0:
				say("Hunk #%d succeeded at %d with fuzz %d (offset %d line%s).\n", n+1, line, fuzz.n, offset, plural(abs(offset)))
			case fuzz.n > 0:
				say("Hunk #%d succeeded at %d with fuzz %d.\n", n+1, line, fuzz.n)
			case offset != 0:
				say("Hunk #%d succeeded at %d (offset %d line%s).\n", n+1, line, offset, plural(abs(offset)))
			}
			delta += len(newL) - len(oldL)
		}
		if failed < 0 {
			status = 1
			continue
		}
		if failed > 0 {
			inv.Sys.Partial("patch .rej")
			say("%d out of %d hunk%s FAILED -- rejects not saved (no file was changed)\n", failed, len(fp.hunks), plural(len(fp.hunks)))
			status = 1
			continue
		}
		content := []byte(strings.Join(lines, ""))
		results = append(results, result{path: p, content: content,
			remove: (deleting || removeEmpty) && len(content) == 0, create: !exists, orig: orig})
	}
	if status == 0 && !dry {
		// Only now, with every file patched in memory, touch the VFS.
		for i, r := range results {
			var err error
			if r.remove {
				err = inv.FS.Remove(r.path)
			} else {
				if r.create {
					err = inv.FS.MkdirAll(path.Dir(r.path), 0o755)
				}
				if err == nil {
					err = writeKeepMode(inv, r.path, r.content)
				}
			}
			if err != nil {
				// Undo the files this run already changed (disk full).
				for _, prev := range results[:i] {
					if prev.create {
						inv.FS.Remove(prev.path)
					} else {
						writeKeepMode(inv, prev.path, prev.orig)
					}
				}
				inv.Stdout.Write(out.Bytes())
				fmt.Fprintf(inv.Stderr, "patch: **** Can't write %s : %s\n", r.path, command.Message(err))
				return 2
			}
		}
	}
	if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
		return 2
	}
	return status
}

// writeKeepMode replaces a file's content, keeping its mode.
func writeKeepMode(inv *command.Invocation, p string, content []byte) error {
	mode := fsMode(0o644)
	if fi, err := inv.FS.Stat(p); err == nil {
		mode = fi.Mode.Perm()
	}
	return inv.FS.WriteFile(p, content, mode)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// side returns the hunk's old ('-') or new ('+') lines.
func (h *hunk) side(kind byte) []string {
	var out []string
	for _, l := range h.lines {
		if l.kind == ' ' || l.kind == kind {
			out = append(out, l.text)
		}
	}
	return out
}

type fuzzInfo struct{ n, head, tail int }

// locate finds where want (the hunk's old side) matches lines, searching
// from expected outwards, first exactly, then with fuzz 1 and 2 (dropping
// up to that many context lines from each end of the hunk).
func locate(lines, want []string, h *hunk, expected int, first bool) (int, fuzzInfo, bool) {
	leadCtx, trailCtx := 0, 0
	for _, l := range h.lines {
		if l.kind != ' ' {
			break
		}
		leadCtx++
	}
	for i := len(h.lines) - 1; i >= 0 && h.lines[i].kind == ' '; i-- {
		trailCtx++
	}
	for fuzz := 0; fuzz <= 2; fuzz++ {
		head, tail := min(fuzz, leadCtx), min(fuzz, trailCtx)
		if fuzz > 0 && head == 0 && tail == 0 {
			break
		}
		if head+tail > len(want) || (fuzz > 0 && len(want)-head-tail == 0) {
			break
		}
		w := want[head : len(want)-tail]
		exp := expected + head
		limit := len(lines) + 1
		for off := 0; off <= limit; off++ {
			for _, at := range []int{exp - off, exp + off} {
				if at < 0 || at+len(w) > len(lines) {
					continue
				}
				if matchAt(lines, w, at) {
					return at, fuzzInfo{fuzz, head, tail}, true
				}
				if off == 0 {
					break
				}
			}
			if exp-off < 0 && exp+off+len(w) > len(lines) {
				break
			}
		}
	}
	return 0, fuzzInfo{}, false
}

func matchAt(lines, want []string, at int) bool {
	for i, w := range want {
		if lines[at+i] != w {
			return false
		}
	}
	return true
}

// chooseName picks the file a patch applies to, as GNU patch does: the
// names after stripping, preferring one that exists; without -p, leading
// directories are kept only if they all exist.
func chooseName(inv *command.Invocation, dir string, fp *filePatch, strip int) string {
	var cands []string
	for _, n := range []string{fp.newName, fp.oldName} {
		if n == "" || n == "/dev/null" {
			continue
		}
		s, ok := stripPath(n, strip)
		if !ok {
			continue
		}
		if strip < 0 {
			if d := path.Dir(s); d != "." {
				if fi, err := inv.FS.Stat(command.Join(dir, d)); err != nil || !fi.IsDir() || path.IsAbs(s) {
					s = path.Base(s)
				}
			}
		}
		cands = append(cands, s)
	}
	for _, c := range cands {
		if _, err := inv.FS.Stat(command.Join(dir, c)); err == nil {
			return c
		}
	}
	creating := fp.oldName == "/dev/null" || (len(fp.hunks) > 0 && fp.hunks[0].oldStart == 0 && fp.hunks[0].oldLen == 0)
	if creating && len(cands) > 0 {
		return cands[0]
	}
	return ""
}

func stripPath(n string, strip int) (string, bool) {
	if strip <= 0 {
		return n, true
	}
	parts := strings.Split(n, "/")
	// Empty components (from "//" or a leading "/") count as GNU counts them.
	if strip >= len(parts) {
		return "", false
	}
	return strings.Join(parts[strip:], "/"), true
}

// parsePatch reads the unified diffs in text.
func parsePatch(text string) ([]*filePatch, string) {
	lines := strings.SplitAfter(text, "\n")
	var out []*filePatch
	var header []string
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSuffix(lines[i], "\n")
		if !strings.HasPrefix(l, "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			if l != "" {
				header = append(header, l)
			}
			continue
		}
		fp := &filePatch{oldName: fileName(l[4:]), newName: fileName(strings.TrimSuffix(lines[i+1], "\n")[4:])}
		fp.header = append(header, l, strings.TrimSuffix(lines[i+1], "\n"))
		fp.startLine = i + 3
		header = nil
		i += 2
		for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
			h, err := parseHunkHeader(strings.TrimSuffix(lines[i], "\n"))
			if err != "" {
				return nil, fmt.Sprintf("malformed patch at line %d: %s", i+1, strings.TrimSuffix(lines[i], "\n"))
			}
			i++
			o, n := 0, 0
			for (o < h.oldLen || n < h.newLen) && i < len(lines) {
				raw := lines[i]
				l := strings.TrimSuffix(raw, "\n")
				if l == "" && raw != "" {
					// Editors strip the space of empty context lines.
					l, raw = " ", " \n"
				}
				if raw == "" {
					break
				}
				kind := l[0]
				textL := raw[1:]
				switch kind {
				case ' ':
					o++
					n++
				case '-':
					o++
				case '+':
					n++
				case '\\':
					i++
					h.noEOL()
					continue
				default:
					return nil, fmt.Sprintf("malformed patch at line %d: %s", i+1, l)
				}
				h.lines = append(h.lines, hunkLine{kind, textL})
				i++
			}
			if o != h.oldLen || n != h.newLen {
				return nil, fmt.Sprintf("malformed patch at line %d: %s", i, strings.TrimSuffix(lines[min(i, len(lines)-1)], "\n"))
			}
			if i < len(lines) && strings.HasPrefix(lines[i], "\\") {
				h.noEOL()
				i++
			}
			fp.hunks = append(fp.hunks, h)
		}
		i--
		out = append(out, fp)
	}
	return out, ""
}

// noEOL drops the newline of the hunk's last line.
func (h *hunk) noEOL() {
	if n := len(h.lines); n > 0 {
		h.lines[n-1].text = strings.TrimSuffix(h.lines[n-1].text, "\n")
	}
}

// fileName takes the name from a ---/+++ line, dropping a tab-separated
// timestamp and git's quoting.
func fileName(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "\"") {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	return s
}

func parseHunkHeader(l string) (*hunk, string) {
	// @@ -a[,b] +c[,d] @@
	f := strings.Fields(l)
	if len(f) < 4 || f[0] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return nil, "bad header"
	}
	h := &hunk{}
	var ok1, ok2 bool
	h.oldStart, h.oldLen, ok1 = parseRange(f[1][1:])
	h.newStart, h.newLen, ok2 = parseRange(f[2][1:])
	if !ok1 || !ok2 {
		return nil, "bad range"
	}
	return h, ""
}

func parseRange(s string) (int, int, bool) {
	a, b, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	n := 1
	if has {
		if n, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, n, true
}

type fsMode = fs.FileMode
