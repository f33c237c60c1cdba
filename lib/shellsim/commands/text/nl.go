package text

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// nl - number lines of files
//
//	nl [-b STYLE] [-h STYLE] [-f STYLE] [-n FORMAT] [-w N] [-s SEP]
//	   [-v N] [-i N] [-l N] [-d CC] [-p] [FILE]...
//
// STYLE is a (all), t (non-empty), n (none) or pBRE; FORMAT is ln, rn or
// rz. Logical pages are split by the section delimiters \:\:\: (header),
// \:\: (body) and \: (footer), which print as empty lines.

var nlSpec = getopt.Spec{
	Short: "b:d:f:h:i:l:n:ps:v:w:",
	Long: []getopt.Long{
		{"header-numbering=", "h"}, {"body-numbering=", "b"}, {"footer-numbering=", "f"},
		{"starting-line-number=", "v"}, {"line-increment=", "i"}, {"no-renumber", "p"},
		{"join-blank-lines=", "l"}, {"number-separator=", "s"}, {"number-width=", "w"},
		{"number-format=", "n"}, {"section-delimiter=", "d"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder: true,
}

type nlStyle struct {
	kind byte // a t n p
	re   *posixre.Regexp
}

// Nl runs nl.
func Nl(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&nlSpec)
	if !ok {
		return p.status
	}
	styles := [3]nlStyle{{kind: 'n'}, {kind: 't'}, {kind: 'n'}} // header body footer
	format, width, sep := "rn", 6, "\t"
	start, incr, join := int64(1), int64(1), int64(1)
	delim := `\:`
	renumber := true
	parseStyle := func(s, which string) (nlStyle, bool) {
		switch {
		case s == "a" || s == "t" || s == "n":
			return nlStyle{kind: s[0]}, true
		case strings.HasPrefix(s, "p"):
			re, err := posixre.Compile(s[1:], posixre.Options{Unicode: utf8Locale(inv.Env), Fuel: p.fuel})
			if err != nil {
				p.warn("%s", err)
				return nlStyle{}, false
			}
			return nlStyle{kind: 'p', re: re}, true
		}
		p.warn("invalid %s numbering style: %s", which, quote(s))
		return nlStyle{}, false
	}
	numErr := false
	num := func(s, what string, min int64) (int64, bool) {
		v, err := strconv.ParseInt(s, 10, 64)
		numErr = true
		switch {
		case err != nil && err.(*strconv.NumError).Err == strconv.ErrRange:
			p.warn("invalid %s: %s: Value too large for defined data type", what, quote(s))
			return 0, false
		case err != nil:
			p.warn("invalid %s: %s", what, quote(s))
			return 0, false
		case v < min:
			p.warn("invalid %s: %s: Numerical result out of range", what, quote(s))
			return 0, false
		}
		return v, true
	}
	for _, o := range opts {
		var ok bool = true
		switch o.Name {
		case "b":
			styles[1], ok = parseStyle(o.Val, "body")
		case "h":
			styles[0], ok = parseStyle(o.Val, "header")
		case "f":
			styles[2], ok = parseStyle(o.Val, "footer")
		case "n":
			switch o.Val {
			case "ln", "rn", "rz":
				format = o.Val
			default:
				p.warn("invalid line numbering format: %s", quote(o.Val))
				ok = false
			}
		case "w":
			var w int64
			w, ok = num(o.Val, "line number field width", 1)
			width = int(w)
		case "s":
			sep = o.Val
		case "v":
			start, ok = num(o.Val, "starting line number", -1<<62)
		case "i":
			incr, ok = num(o.Val, "line number increment", -1<<62)
		case "l":
			join, ok = num(o.Val, "line number of blank lines", 1)
		case "d":
			delim = o.Val
			if len(delim) == 1 {
				delim += ":"
			}
		case "p":
			renumber = false
		}
		if !ok {
			if numErr {
				return p.exit(1)
			}
			return p.usageErr("")
		}
	}
	line := start
	section := 1
	blanks := int64(0)
	pad := strings.Repeat(" ", width+len(sep))
	status := 0
	for _, f := range defaultStdin(files) {
		r, err := p.open(f)
		if err != nil {
			p.fileErr(f, err)
			status = 1
			continue
		}
		lr := newLineReader(r, '\n')
		for {
			raw, err := lr.next()
			if len(raw) > 0 {
				text := strings.TrimSuffix(string(raw), "\n")
				sec := -1
				if delim != "" {
					switch text {
					case strings.Repeat(delim, 3):
						sec = 0
					case strings.Repeat(delim, 2):
						sec = 1
					case delim:
						sec = 2
					}
				}
				var out string
				if sec >= 0 {
					section = sec
					if renumber {
						line = start
					}
					out = "\n"
					blanks = 0
				} else {
					st := styles[section]
					number := false
					switch st.kind {
					case 'a':
						if text == "" {
							blanks++
							if blanks >= join {
								number = true
								blanks = 0
							}
						} else {
							number = true
							blanks = 0
						}
					case 't':
						number = text != ""
					case 'p':
						number = st.re.Match([]byte(text))
						if p.regexFailed(st.re) {
							return p.exit(1)
						}
					}
					if number {
						var n string
						switch format {
						case "ln":
							n = fmt.Sprintf("%-*d", width, line)
						case "rz":
							if line < 0 {
								n = fmt.Sprintf("-%0*d", width-1, -line)
							} else {
								n = fmt.Sprintf("%0*d", width, line)
							}
						default:
							n = fmt.Sprintf("%*d", width, line)
						}
						out = n + sep + text
						line += incr
					} else {
						out = pad + text
						if text == "" {
							out = pad
						}
					}
					out += "\n" // GNU nl terminates the last line too
				}
				if !p.writeString(out) {
					r.Close()
					return p.exit(1)
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				if err == errStop {
					return p.exit(1)
				}
				p.fileErr(f, err)
				status = 1
				break
			}
		}
		r.Close()
	}
	return p.exit(status)
}
