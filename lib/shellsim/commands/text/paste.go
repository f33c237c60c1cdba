package text

import (
	"io"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// paste - merge lines of files
//
//	paste [-sz] [-d LIST] [FILE]...
//
// Joins corresponding lines with the delimiters of LIST, used in turn
// (escapes \n \t \\ and \0 for "no delimiter"); -s joins all lines of each
// file instead. "-" reads standard input, and several "-" share it.

var pasteSpec = getopt.Spec{
	Short: "d:sz",
	Long: []getopt.Long{
		{"serial", "s"}, {"delimiters=", "d"}, {"zero-terminated", "z"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder: true,
}

// pasteDelims decodes a -d LIST; an empty string element means none.
func pasteDelims(s string) ([]string, string) {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			out = append(out, s[i:i+1])
			continue
		}
		if i+1 >= len(s) {
			return nil, "delimiter list ends with an unescaped backslash: " + s
		}
		i++
		switch s[i] {
		case 'n':
			out = append(out, "\n")
		case 't':
			out = append(out, "\t")
		case '0':
			out = append(out, "")
		case 'b':
			out = append(out, "\b")
		case 'f':
			out = append(out, "\f")
		case 'r':
			out = append(out, "\r")
		case 'v':
			out = append(out, "\v")
		default:
			out = append(out, s[i:i+1])
		}
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out, ""
}

// Paste runs paste.
func Paste(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&pasteSpec)
	if !ok {
		return p.status
	}
	delims := []string{"\t"}
	serial := false
	term := byte('\n')
	for _, o := range opts {
		switch o.Name {
		case "d":
			d, msg := pasteDelims(o.Val)
			if msg != "" {
				p.warn("%s", msg)
				return p.exit(1)
			}
			delims = d
		case "s":
			serial = true
		case "z":
			term = 0
		}
	}
	files = defaultStdin(files)
	var stdin *lineReader
	readers := make([]*lineReader, len(files))
	closers := []io.Closer{}
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	open := func(f string) (*lineReader, bool) {
		if f == "-" {
			if stdin == nil {
				stdin = newLineReader(&meter{p, p.Stdin}, term)
			}
			return stdin, true
		}
		r, err := p.open(f)
		if err != nil {
			p.fileErr(f, err)
			return nil, false
		}
		closers = append(closers, r)
		return newLineReader(r, term), true
	}
	next := func(lr *lineReader) ([]byte, bool, error) {
		line, err := lr.next()
		if err == io.EOF {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		if len(line) > 0 && line[len(line)-1] == term {
			line = line[:len(line)-1]
		}
		return line, true, nil
	}
	if serial {
		for _, f := range files {
			lr, ok := open(f)
			if !ok {
				return p.exit(1)
			}
			var out []byte
			for n := 0; ; n++ {
				line, more, err := next(lr)
				if err != nil {
					return p.exit(1)
				}
				if !more {
					break
				}
				if n > 0 {
					out = append(out, delims[(n-1)%len(delims)]...)
				}
				out = append(out, line...)
			}
			out = append(out, term)
			if !p.write(out) {
				return p.exit(1)
			}
		}
		return p.exit(0)
	}
	for i, f := range files {
		lr, ok := open(f)
		if !ok {
			return p.exit(1)
		}
		readers[i] = lr
	}
	done := make([]bool, len(files))
	for {
		var out []byte
		live := 0
		for i, lr := range readers {
			var line []byte
			if !done[i] {
				l, more, err := next(lr)
				if err != nil {
					return p.exit(1)
				}
				if more {
					line = l
					live++
				} else {
					done[i] = true
				}
			}
			out = append(out, line...)
			if i < len(readers)-1 {
				out = append(out, delims[i%len(delims)]...)
			}
		}
		if live == 0 {
			break
		}
		out = append(out, term)
		if !p.write(out) {
			return p.exit(1)
		}
	}
	return p.exit(0)
}
