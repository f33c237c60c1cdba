package text

import (
	"bytes"
	"fmt"
	"io"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// comm - compare two sorted files line by line
//
//	comm [-123z] [--check-order|--nocheck-order] [--output-delimiter=STR]
//	     [--total] FILE1 FILE2
//
// Column 1 holds lines only in FILE1, column 2 lines only in FILE2, column
// 3 lines in both. Unsorted input is diagnosed as GNU comm does (exit 1).

var commSpec = getopt.Spec{
	Short: "123z",
	Long: []getopt.Long{
		{"check-order", "check-order"}, {"nocheck-order", "nocheck-order"},
		{"output-delimiter=", "output-delimiter"}, {"total", "total"}, {"zero-terminated", "z"},
		{"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

// Comm runs comm.
func Comm(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&commSpec)
	if !ok {
		return p.status
	}
	show := [4]bool{false, true, true, true}
	check := 0 // 0 default, 1 always, -1 never
	delim, delimSet := "\t", false
	total := false
	term := byte('\n')
	for _, o := range opts {
		switch o.Name {
		case "1", "2", "3":
			show[o.Name[0]-'0'] = false
		case "check-order":
			check = 1
		case "nocheck-order":
			check = -1
		case "output-delimiter":
			if delimSet && delim != o.Val {
				p.warn("multiple output delimiters specified")
				return p.exit(1)
			}
			delim, delimSet = o.Val, true
			if delim == "" {
				delim = "\x00"
			}
		case "total":
			total = true
		case "z":
			term = 0
		}
	}
	switch {
	case len(files) == 0:
		return p.usageErr("missing operand")
	case len(files) == 1:
		return p.usageErr("missing operand after %s", quote(files[0]))
	case len(files) > 2:
		return p.usageErr("extra operand %s", quote(files[2]))
	}
	var lrs [2]*lineReader
	for i, f := range files {
		r, err := p.open(f)
		if err != nil {
			p.fileErr(f, err)
			return p.exit(1)
		}
		defer r.Close()
		lrs[i] = newLineReader(r, term)
	}
	var cur [2][]byte
	var prev [2][]byte
	var have, pending [2]bool
	var counts [4]int64
	disorder := false
	unpairable := false // GNU checks order by default only once one is seen
	reported := [2]bool{}
	status := 0
	read := func(i int) bool {
		if have[i] {
			prev[i] = append(prev[i][:0], cur[i]...)
		}
		line, err := lrs[i].next()
		if err != nil && err != io.EOF {
			if err != errStop {
				p.fileErr(files[i], err)
			}
			status = 1
			have[i] = false
			return false
		}
		if len(line) == 0 {
			have[i] = false
			return true
		}
		if line[len(line)-1] == term {
			line = line[:len(line)-1]
		}
		pending[i] = have[i]
		cur[i] = append(cur[i][:0], line...)
		have[i] = true
		return true
	}
	// checkOrder compares file i's current line with the one before it,
	// when that line is consumed: by default only once an unpairable line
	// has been seen, as GNU comm does.
	checkOrder := func(i int) bool {
		if !pending[i] {
			return true
		}
		pending[i] = false
		if (check > 0 || (check == 0 && unpairable)) && bytes.Compare(prev[i], cur[i]) > 0 && !reported[i] {
			reported[i] = true
			disorder = true
			if check > 0 {
				return false
			}
			p.warn("file %d is not in sorted order", i+1)
		}
		return true
	}
	out := func(col int, line []byte) bool {
		counts[col]++
		if !show[col] {
			return true
		}
		var b []byte
		for c := 1; c < col; c++ {
			if show[c] {
				b = append(b, delim...)
			}
		}
		b = append(b, line...)
		b = append(b, term)
		return p.write(b)
	}
	okA, okB := read(0), read(1)
	for okA && okB && (have[0] || have[1]) {
		var col int
		switch {
		case !have[1]:
			col = 1
		case !have[0]:
			col = 2
		default:
			switch d := bytes.Compare(cur[0], cur[1]); {
			case d < 0:
				col = 1
			case d > 0:
				col = 2
			default:
				col = 3
			}
		}
		if col != 3 {
			unpairable = true
		}
		if (col != 2 && !checkOrder(0)) || (col != 1 && !checkOrder(1)) {
			break
		}
		switch col {
		case 1:
			if !out(1, cur[0]) {
				return p.exit(1)
			}
			okA = read(0)
		case 2:
			if !out(2, cur[1]) {
				return p.exit(1)
			}
			okB = read(1)
		case 3:
			if !out(3, cur[0]) {
				return p.exit(1)
			}
			okA, okB = read(0), read(1)
		}
	}
	if disorder && check > 0 {
		for i := range reported {
			if reported[i] {
				p.warn("file %d is not in sorted order", i+1)
				break
			}
		}
		return p.exit(1)
	}
	if total {
		p.writeString(fmt.Sprintf("%d%s%d%s%d%stotal%c", counts[1], delim, counts[2], delim, counts[3], delim, term))
	}
	if disorder {
		p.warn("input is not in sorted order")
		return p.exit(1)
	}
	return p.exit(status)
}
