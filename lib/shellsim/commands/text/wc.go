package text

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// wc - print newline, word, and byte counts for each file
//
//	wc [-clmwL] [FILE]...
//
// Column widths follow GNU wc: one count of one input is printed bare;
// otherwise the width is the digit count of the total size of the regular
// files, at least 7 when an input is not a regular file (a pipe).
// Characters (-m) are bytes in the C locale and UTF-8 code points when
// LC_ALL, LC_CTYPE or LANG names a UTF-8 locale.

var wcSpec = getopt.Spec{
	Short: "clmwL",
	Long: []getopt.Long{
		{"bytes", "c"}, {"chars", "m"}, {"lines", "l"}, {"words", "w"},
		{"files0-from=", "files0-from"}, {"max-line-length", "L"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder: true,
}

type wcCounts struct{ lines, words, chars, bytes, maxLen int64 }

// Wc runs wc.
func Wc(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&wcSpec)
	if !ok {
		return p.status
	}
	var show [5]bool // lines words chars bytes maxlen
	var files0 string
	for _, o := range opts {
		switch o.Name {
		case "l":
			show[0] = true
		case "w":
			show[1] = true
		case "m":
			show[2] = true
		case "c":
			show[3] = true
		case "L":
			show[4] = true
		case "files0-from":
			files0 = o.Val
		}
	}
	if show == [5]bool{} {
		show = [5]bool{true, true, false, true, false}
	}
	utf := utf8Locale(inv.Env)
	if files0 != "" {
		if len(files) > 0 {
			p.warn("extra operand %s", qfile(files[0]))
			fmt.Fprintf(p.Stderr, "file operands cannot be combined with --files0-from\n")
			return p.usageErr("")
		}
		data, err := p.readAll(files0)
		if err != nil {
			if p.stop || err == errStop {
				return p.exit(1)
			}
			p.warn("cannot open %s for reading: %s", qfile(files0), command.Message(err))
			return p.exit(1)
		}
		for _, n := range splitLines(data, 0) {
			files = append(files, string(n))
		}
		if len(files) == 0 {
			return p.exit(0)
		}
	}
	names := defaultStdin(files)

	// Widths come from stat before reading, as in GNU wc.
	nshow := 0
	for _, s := range show {
		if s {
			nshow++
		}
	}
	width := 1
	if !(nshow == 1 && len(names) == 1) {
		width = p.wcWidth(names)
	}

	var sum wcCounts
	status := 0
	print := func(c wcCounts, name string) {
		var b strings.Builder
		vals := [5]int64{c.lines, c.words, c.chars, c.bytes, c.maxLen}
		for i, v := range vals {
			if !show[i] {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			s := strconv.FormatInt(v, 10)
			for range width - len(s) {
				b.WriteByte(' ')
			}
			b.WriteString(s)
		}
		if name != "" {
			b.WriteString(" " + name)
		}
		b.WriteByte('\n')
		p.writeString(b.String())
	}
	for _, f := range names {
		c, err := p.wcCount(f, utf)
		if p.stop {
			return p.exit(1)
		}
		if err != nil {
			p.fileErr(f, err)
			status = 1
			if err != command.ErrIsDir {
				continue
			}
		}
		sum.lines += c.lines
		sum.words += c.words
		sum.chars += c.chars
		sum.bytes += c.bytes
		sum.maxLen = max(sum.maxLen, c.maxLen)
		name := f
		if len(files) == 0 {
			name = ""
		}
		print(c, name)
	}
	if len(names) > 1 {
		print(sum, "total")
	}
	return p.exit(status)
}

func utf8Locale(env command.Env) bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if s, ok := env.Get(v); ok && s != "" {
			s = strings.ToLower(s)
			return strings.Contains(s, "utf-8") || strings.Contains(s, "utf8")
		}
	}
	return false
}

func (p *proc) wcWidth(names []string) int {
	minWidth := 1
	var regular int64
	for i, f := range names {
		var fi command.FileInfo
		var err error
		if f == "-" {
			if st, ok := p.Stdin.(interface {
				Stat() (command.FileInfo, error)
			}); ok {
				fi, err = st.Stat()
			} else {
				minWidth = 7
				continue
			}
		} else {
			fi, err = p.FS.Stat(p.Abs(f))
		}
		if err != nil {
			if i == 0 {
				return 1
			}
			continue
		}
		if fi.Mode.IsRegular() {
			regular += fi.Size
		} else {
			minWidth = 7
		}
	}
	return max(len(strconv.FormatInt(regular, 10)), minWidth)
}

func (p *proc) wcCount(name string, utf bool) (wcCounts, error) {
	var c wcCounts
	r, err := p.open(name)
	if err != nil {
		return c, err
	}
	defer r.Close()
	buf := make([]byte, 32*1024)
	inWord := false
	var lineLen int64
	var pend []byte // incomplete UTF-8 sequence carried between reads
	for {
		n, err := r.Read(buf)
		data := buf[:n]
		if len(pend) > 0 {
			data = append(pend, data...)
			pend = nil
		}
		c.bytes += int64(n)
		for i := 0; i < len(data); {
			ch := data[i]
			size := 1
			printable := ch >= 0x20 && ch < 0x7f
			if utf && ch >= 0x80 {
				if !utf8.FullRune(data[i:]) && err == nil {
					pend = append([]byte(nil), data[i:]...)
					break
				}
				ru, sz := utf8.DecodeRune(data[i:])
				size = sz
				printable = ru != utf8.RuneError && ru >= 0xa0
				if ru != utf8.RuneError {
					c.chars++
				}
			} else {
				c.chars++
			}
			switch ch {
			case '\n':
				c.lines++
				c.maxLen = max(c.maxLen, lineLen)
				lineLen = 0
				inWord = false
			case '\t':
				lineLen += 8 - lineLen%8
				inWord = false
			case ' ', '\v', '\f', '\r':
				if ch == ' ' {
					lineLen++
				}
				if ch == '\r' || ch == '\f' {
					c.maxLen = max(c.maxLen, lineLen)
					lineLen = 0
				}
				inWord = false
			default:
				if printable {
					lineLen++
					if !inWord {
						c.words++
						inWord = true
					}
				}
			}
			i += size
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return c, err
		}
	}
	c.maxLen = max(c.maxLen, lineLen)
	if !utf {
		c.chars = c.bytes
	}
	return c, nil
}
