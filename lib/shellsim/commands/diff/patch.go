package diff

import (
	"bytes"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
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

var patchSpec = getopt.Spec{
	Short: "p:i:RNsEfd:tuo:blF:",
	Long: []getopt.Long{
		{"backup", "b"}, {"batch", "t"}, {"directory=", "d"}, {"dry-run", "dry-run"},
		{"force", "f"}, {"forward", "N"}, {"fuzz=", "F"}, {"ignore-whitespace", "l"},
		{"input=", "i"}, {"no-backup-if-mismatch", "no-backup-if-mismatch"}, {"output=", "o"},
		{"quiet", "s"}, {"remove-empty-files", "E"}, {"reverse", "R"}, {"silent", "s"},
		{"strip=", "p"}, {"unified", "u"},
	},
	Status: 2,
}

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
	opts, args, st, ok := getopt.Parse(inv, &patchSpec)
	if !ok {
		return st
	}
	strip, maxFuzzOpt := -1, 2
	var input string
	var reverse, forward, dry, silent, removeEmpty bool
	dir := inv.Dir
	for _, o := range opts {
		switch o.Name {
		case "p":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				fmt.Fprintf(inv.Stderr, "patch: **** strip count %s is not a number\n", o.Val)
				return 2
			}
			strip = n
		case "i":
			input = o.Val
		case "F":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				fmt.Fprintf(inv.Stderr, "patch: **** fuzz factor %s is not a number\n", o.Val)
				return 2
			}
			maxFuzzOpt = n
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
			dir = inv.Abs(o.Val)
		case "f", "t", "u", "no-backup-if-mismatch":
		default:
			flag := map[string]string{"o": "-o", "b": "-b", "l": "-l"}[o.Name]
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
			if strip < 0 {
				fmt.Fprintf(&out, "Perhaps you should have used the -p or --strip option?\n")
			} else {
				fmt.Fprintf(&out, "Perhaps you used the wrong -p or --strip option?\n")
			}
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
		input := splitLines(orig)
		ap := &applier{input: input}
		failed := 0
		for n, h := range fp.hunks {
			if inv.Sys.Charge(int64(len(h.lines)*4+len(input))) != nil {
				return 2
			}
			where, fuzz := 0, 0
			maxFuzz := min(maxFuzzOpt, max(h.prefixContext(), h.suffixContext()))
			for ; fuzz <= maxFuzz; fuzz++ {
				where = ap.locate(h, false, fuzz)
				if where == 0 && n == 0 {
					// A patch that is already applied matches backwards
					// (GNU tries this for the first hunk at each fuzz).
					save := ap.inOffset
					if ap.locate(h, true, fuzz) != 0 && len(h.side('+')) > 0 {
						if forward {
							say("Reversed (or previously applied) patch detected!  Skipping patch.\n")
						} else {
							say("Reversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n")
						}
						say("%d out of %d hunk%s ignored -- rejects not saved (no file was changed)\n", len(fp.hunks), len(fp.hunks), plural(len(fp.hunks)))
						inv.Sys.Partial("patch .rej")
						failed = -1
						break
					}
					ap.inOffset = save
				}
				if where != 0 {
					break
				}
			}
			if failed < 0 {
				break
			}
			if where == 0 {
				say("Hunk #%d FAILED at %d.\n", n+1, h.first()+ap.outOffset)
				failed++
				continue
			}
			newwhere := where + ap.outOffset
			ap.apply(h, where)
			if fuzz > 0 || ap.inOffset != 0 {
				msg := fmt.Sprintf("Hunk #%d succeeded at %d", n+1, newwhere)
				if fuzz > 0 {
					msg += fmt.Sprintf(" with fuzz %d", fuzz)
				}
				if ap.inOffset != 0 {
					msg += fmt.Sprintf(" (offset %d line%s)", ap.inOffset, plural(abs(ap.inOffset)))
				}
				say("%s.\n", msg)
			}
		}
		lines := ap.finish()
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

func (h *hunk) prefixContext() int {
	n := 0
	for _, l := range h.lines {
		if l.kind != ' ' {
			break
		}
		n++
	}
	return n
}

func (h *hunk) suffixContext() int {
	n := 0
	for i := len(h.lines) - 1; i >= 0 && h.lines[i].kind == ' '; i-- {
		n++
	}
	return n
}

// first is the input line where the hunk's old text starts (GNU's
// pch_first: an empty old range names the line it goes before).
func (h *hunk) first() int {
	if h.oldLen == 0 {
		return h.oldStart + 1
	}
	return h.oldStart
}

// applier applies hunks to an input the way GNU patch does: positions
// are input line numbers (1-based), in_offset carries the drift found so
// far, and no hunk may start inside the text an earlier hunk consumed.
type applier struct {
	input      []string
	out        []string
	copied     int // input lines already moved to out
	inOffset   int
	outOffset  int
	lastFrozen int
}

// locate is GNU patch's locate_hunk: it returns the input line where the
// hunk's old text (or, reversed, its new text) matches with the given
// fuzz, or 0. Hunks with less leading than trailing context are anchored
// to the start of the file, and the other way round to its end.
func (a *applier) locate(h *hunk, reversed bool, fuzz int) int {
	kind := byte('-')
	pfirst := h.first()
	if reversed {
		kind = '+'
		pfirst = h.newStart
		if h.newLen == 0 {
			pfirst++
		}
	}
	pat := h.side(kind)
	patLines := len(pat)
	inputLines := len(a.input)
	firstGuess := pfirst + a.inOffset
	prefixCtx, suffixCtx := h.prefixContext(), h.suffixContext()
	context := max(prefixCtx, suffixCtx)
	prefixFuzz := fuzz + prefixCtx - context
	suffixFuzz := fuzz + suffixCtx - context
	maxWhere := inputLines - (patLines - suffixFuzz) + 1
	minWhere := a.lastFrozen + 1 - (prefixCtx - prefixFuzz)
	maxPos := maxWhere - firstGuess
	maxNeg := firstGuess - minWhere
	maxOffset := max(maxPos, maxNeg)
	if patLines == 0 {
		return firstGuess
	}
	if firstGuess <= maxNeg {
		maxNeg = firstGuess - 1
	}
	match := func(offset, pf, sf int) bool {
		base := firstGuess + offset + pf
		for p := pf; p < patLines-sf; p, base = p+1, base+1 {
			if base < 1 || base > inputLines || a.input[base-1] != pat[p] {
				return false
			}
		}
		return true
	}
	if prefixFuzz < 0 && pfirst <= 1 {
		// Can only match the start of the file.
		if suffixFuzz < 0 && (patLines != inputLines || prefixCtx < a.lastFrozen) {
			return 0
		}
		offset := 1 - firstGuess
		if a.lastFrozen <= prefixCtx && offset <= maxPos && match(offset, 0, max(suffixFuzz, 0)) {
			a.inOffset += offset
			return firstGuess + offset
		}
		return 0
	} else if prefixFuzz < 0 {
		prefixFuzz = 0
	}
	if suffixFuzz < 0 {
		// Can only match the end of the file.
		offset := firstGuess - (inputLines - patLines + 1)
		if offset <= maxNeg && match(-offset, prefixFuzz, 0) {
			a.inOffset -= offset
			return firstGuess - offset
		}
		return 0
	}
	for offset := 0; offset <= maxOffset; offset++ {
		if offset <= maxPos && match(offset, prefixFuzz, suffixFuzz) {
			a.inOffset += offset
			return firstGuess + offset
		}
		if offset > 0 && offset <= maxNeg && match(-offset, prefixFuzz, suffixFuzz) {
			a.inOffset -= offset
			return firstGuess - offset
		}
	}
	return 0
}

// apply replaces the hunk's old text at input line where: context lines
// keep the input's text (they may differ under fuzz), removed lines go,
// added lines come from the hunk.
func (a *applier) apply(h *hunk, where int) {
	for a.copied < where-1 && a.copied < len(a.input) {
		a.out = append(a.out, a.input[a.copied])
		a.copied++
	}
	pos := where - 1
	added, removed := 0, 0
	for _, l := range h.lines {
		switch l.kind {
		case ' ':
			if pos < len(a.input) {
				a.out = append(a.out, a.input[pos])
			}
			pos++
		case '-':
			pos++
			removed++
		case '+':
			a.out = append(a.out, l.text)
			added++
		}
	}
	a.copied = min(pos, len(a.input))
	a.lastFrozen = pos
	a.outOffset += added - removed
}

// finish copies the rest of the input and returns the output lines.
func (a *applier) finish() []string {
	out := append(a.out, a.input[a.copied:]...)
	return out
}

// chooseName picks the file a patch applies to, as GNU patch does: the
// names after stripping, preferring one that exists; without -p, leading
// directories are kept only if they all exist.
func chooseName(inv *command.Invocation, dir string, fp *filePatch, strip int) string {
	var cands []string
	for _, n := range []string{fp.oldName, fp.newName} {
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
	// Among the names that exist, GNU patch takes the one with the fewest
	// components, then the shortest base name, then the shortest name; the
	// old name wins a tie.
	best := ""
	key := func(n string) [3]int {
		return [3]int{strings.Count(n, "/"), len(path.Base(n)), len(n)}
	}
	less := func(a, b [3]int) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] < b[i]
			}
		}
		return false
	}
	for i := len(cands) - 1; i >= 0; i-- {
		c := cands[i]
		if _, err := inv.FS.Stat(command.Join(dir, c)); err != nil {
			continue
		}
		// Iterating new-then-old with <= lets the old name win ties.
		if best == "" || !less(key(best), key(c)) {
			best = c
		}
	}
	if best != "" {
		return best
	}
	creating := fp.oldName == "/dev/null" || (len(fp.hunks) > 0 && fp.hunks[0].oldStart == 0 && fp.hunks[0].oldLen == 0)
	if creating && len(cands) > 0 {
		return cands[len(cands)-1]
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
