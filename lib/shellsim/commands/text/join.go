package text

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// join - join lines of two files on a common field
//
//	join [-i] [-a N]... [-v N] [-e EMPTY] [-o FORMAT|auto] [-t CHAR]
//	     [-1 FIELD] [-2 FIELD] [-j FIELD] [--header] [-z]
//	     [--check-order|--nocheck-order] FILE1 FILE2
//
// Both inputs must be sorted on the join field (byte order); disorder is
// diagnosed as GNU join does: fatally with --check-order, otherwise once
// an unpairable line was seen, ending with exit status 1.

var joinSpec = getopt.Spec{
	Short: "1:2:a:e:ij:o:t:v:z",
	Long: []getopt.Long{
		{"ignore-case", "i"}, {"check-order", "check-order"}, {"nocheck-order", "nocheck-order"},
		{"zero-terminated", "z"}, {"header", "header"}, {"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

type joinLine struct {
	text   []byte
	fields [][]byte
}

type joinField struct{ file, field int } // file 0 means the join field

type joiner struct {
	*proc
	tab       int // -1: blanks
	keys      [2]int
	icase     bool
	empty     string
	emptySet  bool
	format    []joinField
	auto      bool
	autoN     [2]int
	unpaired  [2]bool
	onlyUnp   bool
	term      byte
	check     int
	seenUnp   bool
	warned    [2]bool
	names     [2]string
	lineNo    [2]int64
	prev      [2]*joinLine
	readers   [2]*lineReader
	fatal     bool
	outSep    string
	readError bool
}

func (j *joiner) split(text []byte) [][]byte {
	if j.tab >= 0 {
		if len(text) == 0 {
			return nil
		}
		return bytes.Split(text, []byte{byte(j.tab)})
	}
	return bytes.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
}

func (j *joiner) key(l *joinLine, i int) []byte {
	f := j.keys[i]
	if f < len(l.fields) {
		return l.fields[f]
	}
	return nil
}

func (j *joiner) keycmp(a, b *joinLine, ia, ib int) int {
	ka, kb := j.key(a, ia), j.key(b, ib)
	if j.icase {
		return bytes.Compare(bytes.ToLower(ka), bytes.ToLower(kb))
	}
	return bytes.Compare(ka, kb)
}

// get reads the next line of file i, checking order against the previous.
func (j *joiner) get(i int) *joinLine {
	raw, err := j.readers[i].next()
	if err != nil && err != io.EOF {
		if err != errStop {
			j.fileErr(j.names[i], err)
		}
		j.readError = true
		return nil
	}
	if len(raw) == 0 {
		return nil
	}
	text := append([]byte(nil), raw...)
	if text[len(text)-1] == j.term {
		text = text[:len(text)-1]
	}
	j.lineNo[i]++
	l := &joinLine{text: text, fields: j.split(text)}
	if prev := j.prev[i]; prev != nil && j.check >= 0 && (j.check > 0 || j.seenUnp) && !j.warned[i] {
		if j.keycmp(prev, l, i, i) > 0 {
			j.warn("%s:%d: is not sorted: %s", j.names[i], j.lineNo[i], text)
			j.warned[i] = true
			if j.check > 0 {
				j.fatal = true
			}
		}
	}
	j.prev[i] = l
	return l
}

func (j *joiner) field(l *joinLine, n int) ([]byte, bool) {
	if l != nil && n < len(l.fields) {
		return l.fields[n], true
	}
	return nil, false
}

// output prints a joined (or unpaired, with one side nil) line.
func (j *joiner) output(a, b *joinLine) bool {
	var out []byte
	first := true
	add := func(f []byte, ok bool) {
		if !first {
			out = append(out, j.outSep...)
		}
		first = false
		if (!ok || len(f) == 0) && j.emptySet {
			out = append(out, j.empty...)
			return
		}
		out = append(out, f...)
	}
	format := j.format
	if j.auto {
		format = []joinField{{0, 0}}
		for i := 0; i < 2; i++ {
			for f := 0; f < j.autoN[i]; f++ {
				if f != j.keys[i] {
					format = append(format, joinField{i + 1, f})
				}
			}
		}
	}
	if format != nil {
		for _, spec := range format {
			switch spec.file {
			case 0:
				if a != nil {
					add(j.field(a, j.keys[0]))
				} else {
					add(j.field(b, j.keys[1]))
				}
			case 1:
				add(j.field(a, spec.field))
			case 2:
				add(j.field(b, spec.field))
			}
		}
	} else {
		if a != nil {
			add(j.field(a, j.keys[0]))
		} else {
			add(j.field(b, j.keys[1]))
		}
		for i, l := range []*joinLine{a, b} {
			if l == nil {
				continue
			}
			for f, v := range l.fields {
				if f != j.keys[i] {
					add(v, true)
				}
			}
		}
	}
	out = append(out, j.term)
	return j.write(out)
}

// Join runs join.
func Join(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&joinSpec)
	if !ok {
		return p.status
	}
	j := &joiner{proc: p, tab: -1, term: '\n'}
	fieldNum := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			p.warn("invalid field number: %s", quote(s))
			return 0, false
		}
		return n - 1, true
	}
	header := false
	for _, o := range opts {
		switch o.Name {
		case "1", "2", "j":
			n, ok := fieldNum(o.Val)
			if !ok {
				return p.exit(1)
			}
			if o.Name != "2" {
				j.keys[0] = n
			}
			if o.Name != "1" {
				j.keys[1] = n
			}
		case "a", "v":
			if o.Val != "1" && o.Val != "2" {
				p.warn("invalid field number: %s", quote(o.Val))
				return p.exit(1)
			}
			j.unpaired[o.Val[0]-'1'] = true
			if o.Name == "v" {
				j.onlyUnp = true
			}
		case "e":
			j.empty, j.emptySet = o.Val, true
		case "i":
			j.icase = true
		case "o":
			if o.Val == "auto" {
				j.auto = true
				continue
			}
			for _, spec := range strings.FieldsFunc(o.Val, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
				if spec == "0" {
					j.format = append(j.format, joinField{0, 0})
					continue
				}
				fs, fld, ok := strings.Cut(spec, ".")
				if !ok || (fs != "1" && fs != "2") {
					p.warn("invalid file number in field spec: %s", quote(spec))
					return p.exit(1)
				}
				n, ok := fieldNum(fld)
				if !ok {
					return p.exit(1)
				}
				j.format = append(j.format, joinField{int(fs[0] - '0'), n})
			}
		case "t":
			switch {
			case o.Val == "":
				j.tab = '\n' // a whole line is one field
			case o.Val == `\0`:
				j.tab = 0
			case len(o.Val) > 1:
				p.warn("multi-character tab %s", quote(o.Val))
				return p.exit(1)
			default:
				j.tab = int(o.Val[0])
			}
		case "z":
			j.term = 0
		case "check-order":
			j.check = 1
		case "nocheck-order":
			j.check = -1
		case "header":
			header = true
		}
	}
	switch {
	case len(files) == 0:
		return p.usageErr("missing operand")
	case len(files) == 1:
		return p.usageErr("missing operand after %s", quote(files[0]))
	case len(files) > 2:
		return p.usageErr("extra operand %s", qfile(files[2]))
	}
	j.outSep = " "
	if j.tab >= 0 && j.tab != '\n' {
		j.outSep = string(rune(j.tab))
		if j.tab > 127 {
			j.outSep = string([]byte{byte(j.tab)})
		}
	}
	for i, f := range files {
		r, err := p.open(f)
		if err != nil {
			p.fileErr(f, err)
			return p.exit(1)
		}
		defer r.Close()
		j.readers[i] = newLineReader(r, j.term)
		j.names[i] = f
	}
	l1, l2 := j.get(0), j.get(1)
	if j.auto {
		if l1 != nil {
			j.autoN[0] = len(l1.fields)
		}
		if l2 != nil {
			j.autoN[1] = len(l2.fields)
		}
	}
	if header && (l1 != nil || l2 != nil) {
		if !j.output(l1, l2) {
			return p.exit(1)
		}
		j.prev = [2]*joinLine{}
		l1, l2 = j.get(0), j.get(1)
	}
	for l1 != nil && l2 != nil && !j.fatal && !p.stop {
		d := j.keycmp(l1, l2, 0, 1)
		if d < 0 {
			if j.unpaired[0] && !j.output(l1, nil) {
				return p.exit(1)
			}
			j.seenUnp = true
			l1 = j.get(0)
			continue
		}
		if d > 0 {
			if j.unpaired[1] && !j.output(nil, l2) {
				return p.exit(1)
			}
			j.seenUnp = true
			l2 = j.get(1)
			continue
		}
		// Gather the runs of equal keys on both sides.
		seq1 := []*joinLine{l1}
		for {
			l1 = j.get(0)
			if l1 == nil || j.keycmp(seq1[0], l1, 0, 0) != 0 {
				break
			}
			seq1 = append(seq1, l1)
		}
		seq2 := []*joinLine{l2}
		for {
			l2 = j.get(1)
			if l2 == nil || j.keycmp(seq2[0], l2, 1, 1) != 0 {
				break
			}
			seq2 = append(seq2, l2)
		}
		if !p.charge(int64(len(seq1) * len(seq2))) {
			return p.exit(1)
		}
		if !j.onlyUnp {
			for _, a := range seq1 {
				for _, b := range seq2 {
					if !j.output(a, b) {
						return p.exit(1)
					}
				}
			}
		}
	}
	if j.fatal {
		return p.exit(1)
	}
	// The tails are read to check their order (unless --nocheck-order)
	// and to print them with -a.
	for i, l := range []*joinLine{l1, l2} {
		for l != nil && !p.stop {
			if j.unpaired[i] && !j.output(pick(i, l)) {
				return p.exit(1)
			}
			if j.fatal {
				return p.exit(1)
			}
			if (j.warned[i] && !j.unpaired[i]) || (j.check < 0 && !j.unpaired[i]) {
				break
			}
			l = j.get(i)
		}
	}
	if j.fatal {
		return p.exit(1)
	}
	if j.warned[0] || j.warned[1] {
		p.warn("input is not in sorted order")
		return p.exit(1)
	}
	if j.readError {
		return p.exit(1)
	}
	return p.exit(0)
}

// pick places a line of file i on its side of an unpaired output.
func pick(i int, l *joinLine) (*joinLine, *joinLine) {
	if i == 0 {
		return l, nil
	}
	return nil, l
}
