package text

import (
	"io"
	"strconv"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// fold - wrap each input line to fit in specified width
//
//	fold [-bs] [-w WIDTH] [FILE]...
//	fold -WIDTH [FILE]...
//
// Columns count tabs to the next multiple of 8, backspace as -1 and
// carriage return as a reset, unless -b counts bytes; -s breaks after the
// last blank that fits.

var foldSpec = getopt.Spec{
	Short: "bsw:",
	Long: []getopt.Long{
		{"bytes", "b"}, {"spaces", "s"}, {"width=", "w"}, {"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

// Fold runs fold.
func Fold(inv *command.Invocation) int {
	p := newProc(inv, 1)
	args := inv.Args
	if len(args) > 1 && len(args[1]) > 1 && args[1][0] == '-' && isDigit(args[1][1]) {
		args = append([]string{args[0], "-w", args[1][1:]}, args[2:]...)
	}
	inv2 := *inv
	inv2.Args = args
	p.Invocation = &inv2
	opts, files, ok := p.parse(&foldSpec)
	if !ok {
		return p.status
	}
	width, bytesMode, spaces := 80, false, false
	for _, o := range opts {
		switch o.Name {
		case "b":
			bytesMode = true
		case "s":
			spaces = true
		case "w":
			w, err := strconv.ParseInt(o.Val, 10, 64)
			if err != nil || w < 0 {
				p.warn("invalid number of columns: %s", quote(o.Val))
				return p.exit(1)
			}
			if w == 0 {
				p.warn("invalid number of columns: %s: Numerical result out of range", quote(o.Val))
				return p.exit(1)
			}
			width = int(min(w, 1<<31))
		}
	}
	adjust := func(col int, c byte) int {
		if bytesMode {
			return col + 1
		}
		switch c {
		case '\b':
			if col > 0 {
				return col - 1
			}
			return 0
		case '\r':
			return 0
		case '\t':
			return col + 8 - col%8
		}
		return col + 1
	}
	status := 0
	for _, f := range defaultStdin(files) {
		r, err := p.open(f)
		if err != nil {
			p.fileErr(f, err)
			status = 1
			continue
		}
		br := newLineReader(r, '\n')
		var line []byte
		col := 0
		for {
			chunk, err := br.next()
			for _, c := range chunk {
				if c == '\n' {
					line = append(line, c)
					p.write(line)
					line, col = line[:0], 0
					continue
				}
			rescan:
				col = adjust(col, c)
				if col > width {
					if spaces {
						last := -1
						for i := len(line) - 1; i >= 0; i-- {
							if line[i] == ' ' || line[i] == '\t' {
								last = i
								break
							}
						}
						if last >= 0 {
							p.write(line[:last+1])
							p.write([]byte{'\n'})
							rest := append([]byte(nil), line[last+1:]...)
							line = append(line[:0], rest...)
							col = 0
							for _, x := range line {
								col = adjust(col, x)
							}
							goto rescan
						}
					}
					if len(line) == 0 {
						line = append(line, c)
						continue
					}
					line = append(line, '\n')
					p.write(line)
					line, col = line[:0], 0
					goto rescan
				}
				line = append(line, c)
			}
			if p.stop {
				r.Close()
				return p.exit(1)
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
		if len(line) > 0 {
			p.write(line)
		}
		r.Close()
	}
	return p.exit(status)
}
