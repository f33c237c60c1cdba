package text

import (
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// cut - remove sections from each line of files
//
//	cut -b LIST | -c LIST | -f LIST [-d DELIM] [-s] [--complement]
//	    [--output-delimiter=STR] [-z] [FILE]...
//
// As in GNU coreutils, -c counts bytes like -b (there is no multibyte
// support in GNU cut either); -n is accepted and ignored.

var cutSpec = getopt.Spec{
	Short: "b:c:d:f:nsz",
	Long: []getopt.Long{
		{"bytes=", "b"}, {"characters=", "c"}, {"fields=", "f"}, {"delimiter=", "d"},
		{"only-delimited", "s"}, {"output-delimiter=", "output-delimiter"},
		{"complement", "complement"}, {"zero-terminated", "z"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder: true,
}

// span is an inclusive 1-based range; hi == MaxInt means open-ended.
type span struct{ lo, hi int }

// parseList parses a cut LIST ("1,3-5,7-") into sorted, merged spans.
func parseList(list, what string) ([]span, string) {
	var spans []span
	for _, part := range strings.Split(list, ",") {
		if part == "" {
			return nil, "invalid " + what + " value " + quote(part)
		}
		lo, hi := 1, math.MaxInt
		a, b, isRange := strings.Cut(part, "-")
		num := func(s string) (int, string) {
			v, err := strconv.Atoi(s)
			if err != nil || strings.ContainsAny(s, "+-") {
				return 0, "invalid " + what + " value " + quote(part)
			}
			if v == 0 {
				return 0, what + "s are numbered from 1"
			}
			return v, ""
		}
		var msg string
		if !isRange {
			lo, msg = num(a)
			hi = lo
		} else {
			if a == "" && b == "" {
				return nil, "invalid range with no endpoint: -"
			}
			if a != "" {
				if lo, msg = num(a); msg != "" {
					return nil, msg
				}
			}
			if b != "" {
				if hi, msg = num(b); msg != "" {
					return nil, msg
				}
			}
			if hi < lo {
				return nil, "invalid decreasing range"
			}
		}
		if msg != "" {
			return nil, msg
		}
		spans = append(spans, span{lo, hi})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	merged := spans[:1]
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if s.lo <= last.hi || (last.hi != math.MaxInt && s.lo == last.hi+1) {
			last.hi = max(last.hi, s.hi)
			continue
		}
		merged = append(merged, s)
	}
	return merged, ""
}

func inSpans(spans []span, n int) bool {
	for _, s := range spans {
		if n >= s.lo && n <= s.hi {
			return true
		}
		if n < s.lo {
			return false
		}
	}
	return false
}

// Cut runs cut.
func Cut(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&cutSpec)
	if !ok {
		return p.status
	}
	mode, list := "", ""
	delim, delimSet := byte('\t'), false
	only, complement := false, false
	outDelim, outSet := "", false
	term := byte('\n')
	for _, o := range opts {
		switch o.Name {
		case "b", "c", "f":
			if mode != "" {
				return p.usageErr("only one list may be specified")
			}
			mode, list = o.Name, o.Val
		case "d":
			if len(o.Val) > 1 {
				return p.usageErr("the delimiter must be a single character")
			}
			delim, delimSet = 0, true
			if o.Val != "" {
				delim = o.Val[0]
			}
		case "s":
			only = true
		case "complement":
			complement = true
		case "output-delimiter":
			outDelim, outSet = o.Val, true
		case "z":
			term = 0
		}
	}
	if mode == "" {
		return p.usageErr("you must specify a list of bytes, characters, or fields")
	}
	if mode != "f" && delimSet {
		return p.usageErr("an input delimiter may be specified only when operating on fields")
	}
	if mode != "f" && only {
		return p.usageErr("suppressing non-delimited lines makes sense\n\tonly when operating on fields")
	}
	what := map[string]string{"b": "byte/character position", "c": "byte/character position", "f": "field"}[mode]
	spans, msg := parseList(list, what)
	if msg != "" {
		if strings.HasPrefix(msg, what+"s are") {
			msg = map[string]string{"f": "fields are numbered from 1"}[mode]
			if msg == "" {
				msg = "byte/character positions are numbered from 1"
			}
		}
		return p.usageErr("%s", msg)
	}
	if !outSet {
		outDelim = string(delim)
	}
	want := func(n int) bool { return inSpans(spans, n) != complement }
	status := 0
	for _, f := range defaultStdin(files) {
		r, err := p.open(f)
		if err != nil {
			p.fileErr(f, err)
			status = 1
			continue
		}
		lr := newLineReader(r, term)
		for {
			raw, err := lr.next()
			if len(raw) > 0 {
				line := raw
				hasTerm := line[len(line)-1] == term
				if hasTerm {
					line = line[:len(line)-1]
				}
				var out []byte
				if mode == "f" {
					if strings.IndexByte(string(line), delim) < 0 {
						if only {
							continue
						}
						out = append(out, line...)
					} else {
						first := true
						n := 1
						start := 0
						for i := 0; i <= len(line); i++ {
							if i == len(line) || line[i] == delim {
								if want(n) {
									if !first {
										out = append(out, outDelim...)
									}
									out = append(out, line[start:i]...)
									first = false
								}
								n++
								start = i + 1
							}
						}
					}
				} else {
					prev := -2
					for i := range line {
						if want(i + 1) {
							if outSet && prev >= 0 && prev != i-1 {
								out = append(out, outDelim...)
							}
							out = append(out, line[i])
							prev = i
						}
					}
				}
				out = append(out, term)
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
