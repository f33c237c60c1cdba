package text

import (
	"fmt"
	"io"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// cat - concatenate files and print on the standard output
//
//	cat [-AbeEnstTuv] [FILE]...
//
// With no FILE, or when FILE is -, read standard input. Line numbering and
// blank squeezing carry over from one file to the next, as in GNU cat.

var catSpec = getopt.Spec{
	Short: "AbeEnstTuv",
	Long: []getopt.Long{
		{"number-nonblank", "b"}, {"number", "n"}, {"squeeze-blank", "s"},
		{"show-nonprinting", "v"}, {"show-ends", "E"}, {"show-tabs", "T"}, {"show-all", "A"},
		{"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

// Cat runs cat.
func Cat(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&catSpec)
	if !ok {
		return p.status
	}
	var c catState
	for _, o := range opts {
		switch o.Name {
		case "A":
			c.nonprint, c.ends, c.tabs = true, true, true
		case "b":
			c.numberNB = true
		case "e":
			c.nonprint, c.ends = true, true
		case "E":
			c.ends = true
		case "n":
			c.number = true
		case "s":
			c.squeeze = true
		case "t":
			c.nonprint, c.tabs = true, true
		case "T":
			c.tabs = true
		case "v":
			c.nonprint = true
		}
	}
	if c.numberNB {
		c.number = false
	}
	plain := !(c.nonprint || c.ends || c.tabs || c.number || c.numberNB || c.squeeze)
	c.atStart = true
	status := 0
	buf := make([]byte, 32*1024)
	for _, f := range defaultStdin(files) {
		r, err := p.open(f)
		if err != nil {
			p.fileErr(f, err)
			status = 1
			continue
		}
		for {
			n, err := r.Read(buf)
			if n > 0 {
				if plain {
					p.write(buf[:n])
				} else {
					c.format(p, buf[:n])
				}
				// cat is unbuffered: pass each chunk on as it arrives.
				if !p.flush() {
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

type catState struct {
	nonprint, ends, tabs, number, numberNB, squeeze bool
	atStart                                         bool // next byte starts a line
	blanks                                          int  // consecutive empty lines seen
	line                                            int
}

func (c *catState) format(p *proc, b []byte) {
	out := make([]byte, 0, len(b)+len(b)/4)
	for _, ch := range b {
		if c.atStart {
			if ch == '\n' {
				c.blanks++
				if c.squeeze && c.blanks > 1 {
					continue
				}
				if c.number {
					c.line++
					out = fmt.Appendf(out, "%6d\t", c.line)
				}
				if c.ends {
					out = append(out, '$')
				}
				out = append(out, '\n')
				continue
			}
			c.blanks = 0
			if c.number || c.numberNB {
				c.line++
				out = fmt.Appendf(out, "%6d\t", c.line)
			}
			c.atStart = false
		}
		switch {
		case ch == '\n':
			if c.ends {
				out = append(out, '$')
			}
			out = append(out, '\n')
			c.atStart = true
		case ch == '\t':
			if c.tabs {
				out = append(out, '^', 'I')
			} else {
				out = append(out, ch)
			}
		case c.nonprint:
			out = appendVis(out, ch)
		default:
			out = append(out, ch)
		}
	}
	p.write(out)
}

// appendVis renders a byte in cat -v notation (^X, M-X, ^?).
func appendVis(out []byte, ch byte) []byte {
	if ch >= 128 {
		out = append(out, 'M', '-')
		ch -= 128
	}
	switch {
	case ch < 32:
		return append(out, '^', ch+64)
	case ch == 127:
		return append(out, '^', '?')
	}
	return append(out, ch)
}
