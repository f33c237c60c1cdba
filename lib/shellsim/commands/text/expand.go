package text

import (
	"io"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// expand - convert tabs to spaces
//
//	expand [-i] [-t N | -t LIST] [FILE]...
//
// LIST is comma- or blank-separated ascending tab stops; a final "+N"
// repeats every N columns after the last stop and "/N" at multiples of N.
// After the last explicit stop, tabs become single spaces.

var expandSpec = getopt.Spec{
	Short: "it:0123456789",
	Long: []getopt.Long{
		{"tabs=", "t"}, {"initial", "i"}, {"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

type tabStops struct {
	stops []int
	every int // repeat interval after the last stop (or throughout)
	plus  bool
}

// next returns the column of the next tab stop after col (0-based).
func (t *tabStops) next(col int) int {
	if len(t.stops) == 0 {
		return col + t.every - col%t.every
	}
	for _, s := range t.stops {
		if s > col {
			return s
		}
	}
	last := t.stops[len(t.stops)-1]
	switch {
	case t.every > 0 && t.plus:
		return col + t.every - (col-last)%t.every
	case t.every > 0:
		return col + t.every - col%t.every
	}
	return col + 1
}

func parseTabs(p *proc, specs []string) (*tabStops, bool) {
	t := &tabStops{every: 8}
	var nums []int
	for _, spec := range specs {
		for _, f := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' }) {
			pre := ""
			if f[0] == '+' || f[0] == '/' {
				pre, f = f[:1], f[1:]
			}
			n, err := strconv.Atoi(f)
			if err != nil || n < 0 {
				p.warn("tab size contains invalid character(s): %s", quote(pre+f))
				return nil, false
			}
			if n == 0 {
				p.warn("tab size cannot be 0")
				return nil, false
			}
			if pre != "" {
				t.every, t.plus = n, pre == "+"
				continue
			}
			if len(nums) > 0 && n <= nums[len(nums)-1] {
				p.warn("tab sizes must be ascending")
				return nil, false
			}
			nums = append(nums, n)
		}
	}
	switch {
	case len(nums) == 1 && t.every == 8 && !t.plus:
		t.every = nums[0]
	case len(nums) > 0:
		if t.every == 8 && !t.plus {
			t.every = 0
		}
		t.stops = nums
	}
	return t, true
}

// Expand runs expand.
func Expand(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&expandSpec)
	if !ok {
		return p.status
	}
	initial := false
	var specs []string
	digits := ""
	lastArgv := -1
	for _, o := range opts {
		switch o.Name {
		case "i":
			initial = true
		case "t":
			specs = append(specs, o.Val)
		default: // -N (obsolete -t N)
			if o.Word == lastArgv {
				digits += o.Name
				specs[len(specs)-1] = digits
			} else {
				digits = o.Name
				specs = append(specs, digits)
			}
			lastArgv = o.Word
		}
	}
	tabs, ok := parseTabs(p, specs)
	if !ok {
		return p.exit(1)
	}
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
				var out []byte
				col := 0
				leading := true
				for _, c := range raw {
					switch {
					case c == '\t' && (!initial || leading):
						n := tabs.next(col)
						for ; col < n; col++ {
							out = append(out, ' ')
						}
					case c == '\b':
						out = append(out, c)
						if col > 0 {
							col--
						}
						leading = false
					case c == '\n':
						out = append(out, c)
						col = 0
					default:
						if c != ' ' && c != '\t' {
							leading = false
						}
						out = append(out, c)
						col++
					}
				}
				if !p.write(out) {
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
