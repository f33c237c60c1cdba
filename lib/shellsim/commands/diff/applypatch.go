package diff

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// apply_patch - apply a patch in the agent ("*** Begin Patch") format
//
//	apply_patch [PATCH]
//
// The patch comes from the argument or from standard input:
//
//	*** Begin Patch
//	*** Add File: PATH        (every following line starts with "+")
//	*** Delete File: PATH
//	*** Update File: PATH
//	*** Move to: NEWPATH      (optional, right after Update File)
//	@@ [line to find first]
//	 context
//	-old
//	+new
//	*** End of File           (optional: the chunk ends the file)
//	*** End Patch
//
// Chunks are found in order from the end of the previous one, exactly,
// then ignoring trailing white space, then ignoring surrounding white
// space. Paths must be relative and stay below the working directory. The
// patch is atomic: nothing is written unless every operation applies. On
// success it prints "Success. Updated the following files:" and one
// "A/M/D PATH" line per file.

type agentOp struct {
	kind   byte // 'A', 'D', 'M'
	path   string
	moveTo string
	add    []string // Add File content lines
	chunks []agentChunk
}

type agentChunk struct {
	anchor string
	old    []string
	new    []string
	eof    bool
}

// ApplyPatch runs apply_patch.
func ApplyPatch(inv *command.Invocation) int {
	if inv.Sys.Charge(100) != nil {
		return 1
	}
	var text string
	if len(inv.Args) > 1 {
		text = strings.Join(inv.Args[1:], " ")
	} else {
		b, err := io.ReadAll(io.LimitReader(inv.Stdin, 8<<20+1))
		if err != nil {
			return 1
		}
		text = string(b)
	}
	if len(text) > 8<<20 {
		fmt.Fprintln(inv.Stderr, "apply_patch: patch is larger than 8 MiB")
		return 1
	}
	if inv.Sys.Charge(int64(len(text))) != nil {
		return 1
	}
	ops, err := parseAgentPatch(text)
	if err != nil {
		fmt.Fprintf(inv.Stderr, "Invalid patch: %s\n", err)
		return 1
	}
	type write struct {
		path    string
		content []byte
		remove  bool
	}
	var writes []write
	var summary []string
	for _, op := range ops {
		for _, p := range []string{op.path, op.moveTo} {
			if p == "" {
				continue
			}
			if clean := path.Clean(p); path.IsAbs(p) || clean == ".." || strings.HasPrefix(clean, "../") {
				fmt.Fprintf(inv.Stderr, "Invalid patch: path %s must be relative and stay inside the working directory\n", p)
				return 1
			}
		}
		abs := inv.Abs(op.path)
		switch op.kind {
		case 'A':
			content := strings.Join(op.add, "")
			writes = append(writes, write{path: abs, content: []byte(content)})
			summary = append(summary, "A "+op.path)
		case 'D':
			if fi, err := inv.FS.Stat(abs); err != nil || fi.IsDir() {
				fmt.Fprintf(inv.Stderr, "Failed to delete file %s: %s\n", op.path, notFile(err))
				return 1
			}
			writes = append(writes, write{path: abs, remove: true})
			summary = append(summary, "D "+op.path)
		case 'M':
			data, err := inv.FS.ReadFile(abs)
			if err != nil {
				fmt.Fprintf(inv.Stderr, "Failed to read file to update %s: %s\n", op.path, command.Message(err))
				return 1
			}
			if inv.Sys.Charge(int64(len(data))) != nil {
				return 1
			}
			out, err := applyChunks(string(data), op)
			if err != nil {
				fmt.Fprintln(inv.Stderr, err)
				return 1
			}
			if op.moveTo != "" {
				writes = append(writes, write{path: inv.Abs(op.moveTo), content: []byte(out)}, write{path: abs, remove: true})
				summary = append(summary, "M "+op.moveTo)
			} else {
				writes = append(writes, write{path: abs, content: []byte(out)})
				summary = append(summary, "M "+op.path)
			}
		}
	}
	// Everything applied in memory: write it, undoing on failure.
	type undo struct {
		path    string
		old     []byte
		existed bool
	}
	var undos []undo
	rollback := func() {
		for i := len(undos) - 1; i >= 0; i-- {
			u := undos[i]
			if u.existed {
				inv.FS.WriteFile(u.path, u.old, 0o644)
			} else {
				inv.FS.Remove(u.path)
			}
		}
	}
	for _, w := range writes {
		old, err := inv.FS.ReadFile(w.path)
		undos = append(undos, undo{w.path, old, err == nil})
		if w.remove {
			err = inv.FS.Remove(w.path)
		} else {
			if err = inv.FS.MkdirAll(path.Dir(w.path), 0o755); err == nil {
				err = writeKeepMode(inv, w.path, w.content)
			}
		}
		if err != nil {
			rollback()
			fmt.Fprintf(inv.Stderr, "apply_patch: %s: %s\n", w.path, command.Message(err))
			return 1
		}
	}
	msg := "Success. Updated the following files:\n" + strings.Join(summary, "\n") + "\n"
	if _, err := io.WriteString(inv.Stdout, msg); err != nil {
		return 1
	}
	return 0
}

func notFile(err error) string {
	if err != nil {
		return command.Message(err)
	}
	return "Is a directory"
}

func parseAgentPatch(text string) ([]agentOp, error) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "*** Begin Patch" {
		return nil, fmt.Errorf("The first line of the patch must be '*** Begin Patch'")
	}
	if strings.TrimSpace(lines[len(lines)-1]) != "*** End Patch" {
		return nil, fmt.Errorf("The last line of the patch must be '*** End Patch'")
	}
	lines = lines[1 : len(lines)-1]
	var ops []agentOp
	for i := 0; i < len(lines); {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "*** Add File: "):
			op := agentOp{kind: 'A', path: strings.TrimSpace(l[len("*** Add File: "):])}
			i++
			for i < len(lines) && strings.HasPrefix(lines[i], "+") {
				op.add = append(op.add, lines[i][1:]+"\n")
				i++
			}
			ops = append(ops, op)
		case strings.HasPrefix(l, "*** Delete File: "):
			ops = append(ops, agentOp{kind: 'D', path: strings.TrimSpace(l[len("*** Delete File: "):])})
			i++
		case strings.HasPrefix(l, "*** Update File: "):
			op := agentOp{kind: 'M', path: strings.TrimSpace(l[len("*** Update File: "):])}
			i++
			if i < len(lines) && strings.HasPrefix(lines[i], "*** Move to: ") {
				op.moveTo = strings.TrimSpace(lines[i][len("*** Move to: "):])
				i++
			}
			for i < len(lines) && !strings.HasPrefix(lines[i], "*** ") || i < len(lines) && lines[i] == "*** End of File" {
				var c agentChunk
				if strings.HasPrefix(lines[i], "@@") {
					c.anchor = strings.TrimSpace(strings.TrimPrefix(lines[i], "@@"))
					i++
				} else if len(op.chunks) > 0 {
					return nil, fmt.Errorf("Expected update hunk to start with a @@ context marker, got: '%s'", lines[i])
				}
				n := 0
				for ; i < len(lines); i++ {
					t := lines[i]
					if t == "*** End of File" {
						c.eof = true
						i++
						break
					}
					if strings.HasPrefix(t, "@@") || strings.HasPrefix(t, "*** ") {
						break
					}
					switch {
					case t == "":
						c.old = append(c.old, "")
						c.new = append(c.new, "")
					case t[0] == ' ':
						c.old = append(c.old, t[1:])
						c.new = append(c.new, t[1:])
					case t[0] == '-':
						c.old = append(c.old, t[1:])
					case t[0] == '+':
						c.new = append(c.new, t[1:])
					default:
						return nil, fmt.Errorf("Unexpected line found in update hunk: '%s'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)", t)
					}
					n++
				}
				if n == 0 && c.anchor == "" {
					return nil, fmt.Errorf("Update hunk for %s does not contain any lines", op.path)
				}
				op.chunks = append(op.chunks, c)
			}
			if len(op.chunks) == 0 {
				return nil, fmt.Errorf("Update file hunk for path '%s' is empty", op.path)
			}
			ops = append(ops, op)
		case strings.TrimSpace(l) == "":
			i++
		default:
			return nil, fmt.Errorf("'%s' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'", l)
		}
	}
	return ops, nil
}

// applyChunks applies an Update File operation to content.
func applyChunks(content string, op agentOp) (string, error) {
	lines := strings.Split(content, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	type repl struct {
		at, n int
		new   []string
	}
	var repls []repl
	pos := 0
	for _, c := range op.chunks {
		if c.anchor != "" {
			at := seek(lines, []string{c.anchor}, pos, false)
			if at < 0 {
				return "", fmt.Errorf("Failed to find context '%s' in %s", c.anchor, op.path)
			}
			pos = at + 1
		}
		if len(c.old) == 0 {
			// Pure addition: at the end of the file.
			repls = append(repls, repl{len(lines), 0, c.new})
			continue
		}
		old, new := c.old, c.new
		at := seek(lines, old, pos, c.eof)
		if at < 0 && len(old) > 0 && old[len(old)-1] == "" {
			// A trailing empty line in the chunk may stand for the end of file.
			old = old[:len(old)-1]
			if len(new) > 0 && new[len(new)-1] == "" {
				new = new[:len(new)-1]
			}
			at = seek(lines, old, pos, c.eof)
		}
		if at < 0 {
			return "", fmt.Errorf("Failed to find expected lines in %s:\n%s", op.path, strings.Join(c.old, "\n"))
		}
		repls = append(repls, repl{at, len(old), new})
		pos = at + len(old)
	}
	var out []string
	prev := 0
	for _, r := range repls {
		if r.at < prev {
			return "", fmt.Errorf("Failed to apply %s: chunks overlap", op.path)
		}
		out = append(out, lines[prev:r.at]...)
		out = append(out, r.new...)
		prev = r.at + r.n
	}
	out = append(out, lines[prev:]...)
	return strings.Join(out, "\n") + "\n", nil
}

// seek finds want in lines from start: exactly, then ignoring trailing
// white space, then ignoring surrounding white space. With eof the match
// must end the file.
func seek(lines, want []string, start int, eof bool) int {
	norms := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.TrimRight(s, " \t\r") },
		strings.TrimSpace,
	}
	for _, norm := range norms {
		from, to := start, len(lines)-len(want)
		if eof {
			from = max(start, len(lines)-len(want))
		}
		for at := from; at <= to; at++ {
			ok := true
			for k, w := range want {
				if norm(lines[at+k]) != norm(w) {
					ok = false
					break
				}
			}
			if ok {
				return at
			}
		}
	}
	return -1
}
