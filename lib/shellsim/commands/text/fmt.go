package text

import (
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// fmt - simple optimal text formatter
//
//	fmt [-cstu] [-w WIDTH] [-g GOAL] [-WIDTH] [FILE]...
//
// Re-fills paragraphs with GNU fmt's algorithm: lines are chosen to
// minimize a cost that prefers lengths near GOAL (93% of WIDTH), breaks
// after sentences and punctuation, and no widows or orphans. With -p only
// lines starting with PREFIX (after blanks) are filled, keeping the
// prefix. Hand-written because the output must match GNU's choices byte
// for byte.

var fmtSpec = getopt.Spec{
	Short: "0123456789cstuw:g:p:",
	Long: []getopt.Long{
		{"crown-margin", "c"}, {"prefix=", "p"}, {"split-only", "s"}, {"tagged-paragraph", "t"},
		{"uniform-spacing", "u"}, {"width=", "w"}, {"goal=", "g"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder: true,
}

const (
	fmtTab       = 8
	fmtMaxWords  = 1000
	fmtLineCost  = 70 * 70
	fmtSentBonus = 50 * 50
	fmtNoBreak   = 600 * 600
	fmtParen     = 40 * 40
	fmtPunct     = 40 * 40
)

func fmtShort(n int) int64  { return int64(n*10) * int64(n*10) }
func fmtRagged(n int) int64 { return fmtShort(n) / 2 }
func fmtWidow(n int) int64  { return 200 * 200 / int64(n+2) }
func fmtOrphan(n int) int64 { return 150 * 150 / int64(n+2) }

type fmtWord struct {
	text                        []byte
	length, space               int
	paren, period, punct, final bool
	lineLen                     int
	best                        int64
	next                        int
}

type fmter struct {
	p                                  *proc
	data                               []byte
	pos                                int
	inCol                              int
	tabs                               bool
	maxW, goalW                        int
	uniform, split, crown, tagged      bool
	words                              []fmtWord
	firstIndent, otherIndent, lastLine int
	outCol                             int
	out                                []byte
	// -p: the prefix (trailing blanks trimmed), its length untrimmed, and
	// its leading blanks; the indentation of the prefix on this line and
	// in the current paragraph.
	prefix                         string
	prefixFull, prefixLead         int
	nextPrefixIndent, prefixIndent int
}

func (f *fmter) getc() int {
	if f.pos >= len(f.data) {
		return -1
	}
	c := f.data[f.pos]
	f.pos++
	return int(c)
}

func (f *fmter) getSpace(c int) int {
	for {
		switch c {
		case ' ':
			f.inCol++
		case '\t':
			f.tabs = true
			f.inCol = (f.inCol/fmtTab + 1) * fmtTab
		default:
			return c
		}
		c = f.getc()
	}
}

func (f *fmter) getPrefix() int {
	f.inCol = 0
	c := f.getSpace(f.getc())
	if f.prefix == "" {
		f.nextPrefixIndent = min(f.prefixLead, f.inCol)
		return c
	}
	f.nextPrefixIndent = f.inCol
	for i := 0; i < len(f.prefix); i++ {
		if c != int(f.prefix[i]) {
			return c
		}
		f.inCol++
		c = f.getc()
	}
	return f.getSpace(c)
}

// copyRest copies a line that is blank or lacks the prefix; c is the
// character that ended the prefix scan. It returns '\n' or EOF (-1).
func (f *fmter) copyRest(c int) int {
	f.outCol = 0
	if f.inCol > f.nextPrefixIndent || (c != '\n' && c >= 0) {
		f.putSpace(f.nextPrefixIndent)
		for i := 0; f.outCol != f.inCol && i < len(f.prefix); i++ {
			f.out = append(f.out, f.prefix[i])
			f.outCol++
		}
		if c >= 0 && c != '\n' {
			f.putSpace(f.inCol - f.outCol)
		}
		if c < 0 && f.inCol >= f.nextPrefixIndent+len(f.prefix) {
			f.out = append(f.out, '\n')
		}
	}
	for c != '\n' && c >= 0 {
		f.out = append(f.out, byte(c))
		c = f.getc()
	}
	return c
}

func fmtSpace(c int) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func (f *fmter) getLine() int {
	var c int
	for {
		var w fmtWord
		start := f.pos - 1
		for {
			c = f.getc()
			if c < 0 || fmtSpace(c) {
				break
			}
		}
		end := f.pos
		if c >= 0 {
			end--
		}
		w.text = f.data[start:end]
		w.length = len(w.text)
		f.inCol += w.length
		first, last := w.text[0], w.text[len(w.text)-1]
		w.paren = first == '(' || first == '[' || first == '\'' || first == '`' || first == '"'
		w.punct = last > ' ' && last < 127 && !isAlnum(last)
		i := len(w.text) - 1
		for i > 0 && (w.text[i] == ')' || w.text[i] == ']' || w.text[i] == '\'' || w.text[i] == '"') {
			i--
		}
		w.period = w.text[i] == '.' || w.text[i] == '?' || w.text[i] == '!'
		col := f.inCol
		c = f.getSpace(c)
		w.space = f.inCol - col
		w.final = c < 0 || (w.period && (c == '\n' || w.space > 1))
		if c == '\n' || c < 0 || f.uniform {
			w.space = 1
			if w.final {
				w.space = 2
			}
		}
		f.words = append(f.words, w)
		if c == '\n' || c < 0 || len(f.words) >= fmtMaxWords {
			break
		}
	}
	return f.getPrefix()
}

func (f *fmter) samePara(c int) bool {
	return f.nextPrefixIndent == f.prefixIndent && f.inCol >= f.nextPrefixIndent+f.prefixFull &&
		c != '\n' && c >= 0
}

func (f *fmter) setOtherIndent(same bool) {
	switch {
	case f.split:
		f.otherIndent = f.firstIndent
	case f.crown:
		if same {
			f.otherIndent = f.inCol
		} else {
			f.otherIndent = f.firstIndent
		}
	case f.tagged:
		if same && f.inCol != f.firstIndent {
			f.otherIndent = f.inCol
		} else if f.otherIndent == f.firstIndent {
			if f.firstIndent == 0 {
				f.otherIndent = 3
			} else {
				f.otherIndent = 0
			}
		}
	default:
		f.otherIndent = f.firstIndent
	}
}

// paragraph reads one paragraph, copying blank lines through; false at EOF.
func (f *fmter) paragraph(c *int) bool {
	f.lastLine = 0
	// Copy blank lines and lines without the prefix.
	for *c == '\n' || *c < 0 || f.nextPrefixIndent < f.prefixLead ||
		f.inCol < f.nextPrefixIndent+f.prefixFull {
		*c = f.copyRest(*c)
		if *c < 0 {
			return false
		}
		f.out = append(f.out, '\n')
		*c = f.getPrefix()
	}
	f.prefixIndent = f.nextPrefixIndent
	f.firstIndent = f.inCol
	f.words = f.words[:0]
	*c = f.getLine()
	f.setOtherIndent(f.samePara(*c))
	switch {
	case f.split:
	case f.crown:
		if f.samePara(*c) {
			for {
				*c = f.getLine()
				if !(f.samePara(*c) && f.inCol == f.otherIndent) || len(f.words) >= fmtMaxWords {
					break
				}
			}
		}
	case f.tagged:
		if f.samePara(*c) && f.inCol != f.firstIndent {
			for {
				*c = f.getLine()
				if !(f.samePara(*c) && f.inCol == f.otherIndent) || len(f.words) >= fmtMaxWords {
					break
				}
			}
		}
	default:
		for f.samePara(*c) && f.inCol == f.firstIndent && len(f.words) < fmtMaxWords {
			*c = f.getLine()
		}
	}
	last := &f.words[len(f.words)-1]
	last.period, last.final = true, true
	return true
}

func (f *fmter) baseCost(i int) int64 {
	w := f.words
	cost := int64(fmtLineCost)
	if i > 0 {
		switch {
		case w[i-1].period:
			if w[i-1].final {
				cost -= fmtSentBonus
			} else {
				cost += fmtNoBreak
			}
		case w[i-1].punct:
			cost -= fmtPunct
		case i > 1 && w[i-2].final:
			cost += fmtWidow(w[i-1].length)
		}
	}
	if w[i].paren {
		cost -= fmtParen
	} else if w[i].final {
		cost += fmtOrphan(w[i].length)
	}
	return cost
}

func (f *fmter) lineCost(next, length int) int64 {
	limit := len(f.words) - 1
	if next == limit {
		return 0
	}
	cost := fmtShort(f.goalW - length)
	if f.words[next].next != limit {
		cost += fmtRagged(length - f.words[next].lineLen)
	}
	return cost
}

// fill chooses the line breaks by dynamic programming from the end.
func (f *fmter) fill() {
	n := len(f.words)
	f.words = append(f.words, fmtWord{length: f.maxW}) // sentinel
	w := f.words
	for start := n - 1; start >= 0; start-- {
		best := int64(1<<62 - 1)
		length := f.otherIndent
		if start == 0 {
			length = f.firstIndent
		}
		i := start
		length += w[i].length
		for {
			i++
			cost := f.lineCost(i, length) + w[i].best
			if start == 0 && f.lastLine > 0 {
				cost += fmtRagged(length - f.lastLine)
			}
			if cost < best {
				best = cost
				w[start].next = i
				w[start].lineLen = length
			}
			if i == n {
				break
			}
			length += w[i-1].space + w[i].length
			if length >= f.maxW {
				break
			}
		}
		w[start].best = best + f.baseCost(start)
	}
}

func (f *fmter) putSpace(space int) {
	target := f.outCol + space
	if f.tabs {
		tabTarget := target / fmtTab * fmtTab
		if f.outCol+1 < tabTarget {
			for f.outCol < tabTarget {
				f.out = append(f.out, '\t')
				f.outCol = (f.outCol/fmtTab + 1) * fmtTab
			}
		}
	}
	for f.outCol < target {
		f.out = append(f.out, ' ')
		f.outCol++
	}
}

func (f *fmter) putLine(i, indent int) {
	f.outCol = 0
	f.putSpace(f.prefixIndent)
	f.out = append(f.out, f.prefix...)
	f.outCol += len(f.prefix)
	f.putSpace(indent - f.outCol)
	end := f.words[i].next - 1
	for ; i < end; i++ {
		f.out = append(f.out, f.words[i].text...)
		f.outCol += f.words[i].length
		f.putSpace(f.words[i].space)
	}
	f.out = append(f.out, f.words[i].text...)
	f.outCol += f.words[i].length
	f.lastLine = f.outCol
	f.out = append(f.out, '\n')
}

func (f *fmter) put() {
	limit := len(f.words) - 1
	f.putLine(0, f.firstIndent)
	for i := f.words[0].next; i != limit; i = f.words[i].next {
		f.putLine(i, f.otherIndent)
	}
}

// Fmt runs fmt.
func Fmt(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&fmtSpec)
	if !ok {
		return p.status
	}
	f := &fmter{p: p, maxW: 75}
	width, goal := "", ""
	digits, lastArgv := "", -1
	for _, o := range opts {
		switch o.Name {
		case "c":
			f.crown = true
		case "s":
			f.split = true
		case "t":
			f.tagged = true
		case "u":
			f.uniform = true
		case "w":
			width = o.Val
		case "g":
			goal = o.Val
		case "p":
			pre := o.Val
			f.prefixLead = len(pre) - len(strings.TrimLeft(pre, " "))
			pre = pre[f.prefixLead:]
			f.prefixFull = len(pre)
			f.prefix = strings.TrimRight(pre, " ")
		default:
			if o.Word != lastArgv {
				digits = ""
			}
			digits += o.Name
			width, lastArgv = digits, o.Word
		}
	}
	if width != "" {
		n, err := strconv.Atoi(width)
		if err != nil || n < 0 || n > 2500 {
			p.warn("invalid width: %s", quote(width))
			return p.exit(1)
		}
		f.maxW = n
	}
	if goal != "" {
		n, err := strconv.Atoi(goal)
		if err != nil || n < 0 || n > f.maxW && width != "" {
			p.warn("invalid width: %s", quote(goal))
			return p.exit(1)
		}
		f.goalW = n
		if width == "" {
			f.maxW = n + 10
		}
	} else {
		f.goalW = f.maxW * (2*(100-7) + 1) / 200
	}
	status := 0
	for _, name := range defaultStdin(files) {
		data, err := p.readAll(name)
		if p.stop || err == errStop {
			return p.exit(1)
		}
		if err != nil {
			p.warn("cannot open %s for reading: %s", qfile(name), command.Message(err))
			status = 1
			continue
		}
		if !p.charge(int64(len(data)) * 4) {
			return p.exit(1)
		}
		f.data, f.pos = data, 0
		c := f.getPrefix()
		for f.paragraph(&c) {
			f.fill()
			f.put()
			if len(f.out) > 32*1024 {
				if !p.write(f.out) {
					return p.exit(1)
				}
				f.out = f.out[:0]
			}
		}
		if !p.write(f.out) {
			return p.exit(1)
		}
		f.out = f.out[:0]
	}
	return p.exit(status)
}
