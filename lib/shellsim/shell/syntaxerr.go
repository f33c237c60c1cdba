package shell

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
)

// Syntax errors of a script. bash reads a script one complete command (up
// to its newline) at a time and runs it before reading on, so the commands
// before a syntax error have run when it is reported; the shell then exits
// with status 2 (1 for an unclosed array assignment). The parser here reads
// the whole source first, so the commands before the error are found as
// the longest run of whole lines before it that parses on its own.

// maxPrefixTries bounds the re-parses that look for those lines.
const maxPrefixTries = 64

// runSyntaxError runs the complete commands before a parse error, then
// reports it in bash's words and returns the shell's exit status.
func (sh *Shell) runSyntaxError(src, name string, err error) int {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		io.WriteString(sh.stderr(), ParseErrorText(sh.name, err))
		sh.status = 2
		return 2
	}
	if f := sh.linesBefore(src, name, int(pe.Pos.Line())); f != nil {
		sh.units(f.Stmts)
		if sh.exiting {
			return sh.exitCode
		}
	}
	prefix := sh.name
	if sh.cmdString && !sh.subshell {
		prefix += ": -c"
	}
	return sh.reportSyntaxError(src, pe, prefix)
}

// reportSyntaxError prints a parse error of src in bash's words, its line
// counted from the shell's line base, and sets the status it gives.
func (sh *Shell) reportSyntaxError(src string, pe syntax.ParseError, prefix string) int {
	msg, st := bashSyntaxError(src, pe, sh.lineBase)
	io.WriteString(sh.stderr(), strings.ReplaceAll(msg, "\x00", prefix))
	sh.status = st
	return st
}

// parseOrPrefix parses eval or source text; on a syntax error it returns
// the complete commands before it (or nil) and the error to report after
// they ran.
func (sh *Shell) parseOrPrefix(src, name string) (*syntax.File, *syntax.ParseError, error) {
	f, err := sh.Parse(src, name)
	if err == nil {
		return f, nil, nil
	}
	var pe syntax.ParseError
	if sh.exiting || !errors.As(err, &pe) {
		return nil, nil, err
	}
	return sh.linesBefore(src, name, int(pe.Pos.Line())), &pe, nil
}

// linesBefore parses the longest run of whole lines before line that
// parses by itself (and does not end in a line continuation).
func (sh *Shell) linesBefore(src, name string, line int) *syntax.File {
	ends := []int{} // offsets just past each newline before line
	for i, n := 0, 1; i < len(src) && n < line; i++ {
		if src[i] == '\n' {
			ends = append(ends, i+1)
			n++
		}
	}
	for k, tries := len(ends)-1, 0; k >= 0 && tries < maxPrefixTries; k, tries = k-1, tries+1 {
		pre := src[:ends[k]]
		if strings.HasSuffix(pre, "\\\n") {
			continue
		}
		if sh.charge(int64(len(pre))*resources.CostParseByte) != nil || command.CheckSyntaxNest(pre) != nil {
			return nil
		}
		if f, err := sh.parseDeferring(pre, name); err == nil {
			return f
		}
	}
	return nil
}

// bashSyntaxError words a parse error as bash does; NUL stands for the
// "NAME: line N" prefix's name part. It returns the exit status.
func bashSyntaxError(src string, pe syntax.ParseError, base int) (string, int) {
	line := base + int(pe.Pos.Line())
	off := int(pe.Pos.Offset())
	eofLine := base + strings.Count(src, "\n") + 1
	if !strings.HasSuffix(src, "\n") {
		eofLine++
	}
	text := pe.Text
	if o, c, ok := unclosedArith(src, off); ok && !strings.Contains(text, "nesting deeper") {
		// bash reads $((, $[ and (( to their closing bracket first
		return fmt.Sprintf("\x00: line %d: unexpected EOF while looking for matching `%c'\n", base+1+strings.Count(src[:o], "\n"), c), 2
	}
	switch {
	case strings.HasPrefix(text, "reached EOF without closing quote "):
		q := strings.TrimPrefix(text, "reached EOF without closing quote ")
		if len(q) >= 3 {
			q = q[1 : len(q)-1] // `"` or "`"
		}
		return fmt.Sprintf("\x00: line %d: unexpected EOF while looking for matching `%s'\n", line, q), 2
	case text == "reached EOF without matching `$(` with `)`":
		return fmt.Sprintf("\x00: line %d: unexpected EOF while looking for matching `)'\n", eofLine), 2
	case text == "reached `)` without matching `$((` with `))`":
		return fmt.Sprintf("\x00: line %d: unexpected EOF while looking for matching `)'\n", line), 2
	case text == "reached EOF without matching `(` with `)`" && off > 0 && off < len(src) && src[off-1] == '=':
		// an array assignment left open
		return fmt.Sprintf("\x00: line %d: unexpected EOF while looking for matching `)'\n", line), 1
	case text == "invalid var name":
		// declare 1x=(...): bash reads no array value after an invalid name
		if i := strings.IndexByte(src[off:], '('); i >= 0 {
			return nearToken(src, base, line-base, "("), 2
		}
	case strings.HasSuffix(text, "must be followed by a word"):
		tok := tokenAt(src, skipToken(src, off))
		return nearToken(src, base, line-base, tok), 2
	case strings.HasSuffix(text, "must be followed by a statement list"):
		// newlines may follow the keyword: the next token, or the end
		i := skipToken(src, off)
		for i < len(src) && strings.IndexByte(" \t\n", src[i]) >= 0 {
			i++
		}
		if i >= len(src) {
			return fmt.Sprintf("\x00: line %d: syntax error: unexpected end of file\n", eofLine), 2
		}
		return nearToken(src, base, 1+strings.Count(src[:i], "\n"), tokenAt(src, i)), 2
	case pe.Incomplete:
		return fmt.Sprintf("\x00: line %d: syntax error: unexpected end of file\n", eofLine), 2
	case strings.HasSuffix(text, "must be followed by `)`"):
		// name ( followed by something else: bash names the token after (
		i := off
		if j := strings.IndexByte(src[off:], '('); j >= 0 {
			i = off + j
		}
		return nearToken(src, base, line-base, tokenAt(src, skipToken(src, i))), 2
	case strings.Contains(text, "can only be used"), strings.Contains(text, "can only immediately follow"),
		strings.Contains(text, "; encountered `"), strings.HasPrefix(text, "statements must be separated by"):
		return nearToken(src, base, line-base, tokenAt(src, off)), 2
	}
	return fmt.Sprintf("\x00: line %d: syntax error: %s\n", line, text), 2
}

// nearToken is bash's report of an unexpected token, with the line's text.
func nearToken(src string, base, line int, tok string) string {
	lines := strings.Split(src, "\n")
	text := ""
	if line-1 < len(lines) {
		text = lines[line-1]
	}
	line += base
	return fmt.Sprintf("\x00: line %d: syntax error near unexpected token `%s'\n\x00: line %d: `%s'\n", line, tok, line, text)
}

var shellOps = []string{";;&", ";;", ";&", "&&", "||", "|&", ">>", "<<", "&>", ";", "&", "|", "(", ")", "<", ">"}

// skipToken returns the offset past the token at off and the blanks after it.
func skipToken(src string, off int) int {
	t := tokenAt(src, off)
	if t == "newline" {
		return off
	}
	i := off + len(t)
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// tokenAt reads the shell token at off as bash names it ("newline" at the
// end of a line or of the input).
func tokenAt(src string, off int) string {
	if off >= len(src) || src[off] == '\n' {
		return "newline"
	}
	for _, op := range shellOps {
		if strings.HasPrefix(src[off:], op) {
			return op
		}
	}
	end := off
	for end < len(src) && !strings.ContainsRune(" \t\n;&|()<>", rune(src[end])) {
		end++
	}
	return src[off:end]
}

// unclosedArith finds an arithmetic opener ($((, $[, or (( beginning a
// command) at or before off that does not close before the end of src.
func unclosedArith(src string, off int) (int, byte, bool) {
	tries := 0 // each try scans the rest of src: a few are enough
	for o := min(off, len(src)-1); o >= 0 && off-o < 4096 && tries < 8; o-- {
		if src[o] == '$' || src[o] == '(' {
			tries++
		}
		switch {
		case strings.HasPrefix(src[o:], "$(("):
			if _, ok := matchClose(src, o+3, '(', ')', 2); !ok {
				return o, ')', true
			}
		case strings.HasPrefix(src[o:], "$["):
			if _, ok := matchClose(src, o+2, '[', ']', 1); !ok {
				return o, ']', true
			}
		case strings.HasPrefix(src[o:], "((") && (o == 0 || src[o-1] != '$' && src[o-1] != '(') && atCommandStart(src, o):
			if _, ok := matchClose(src, o+2, '(', ')', 2); !ok {
				return o, ')', true
			}
		}
	}
	return 0, 0, false
}
