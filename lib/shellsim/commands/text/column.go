package text

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// column - columnate lists (util-linux)
//
//	column [-x] [-c WIDTH] [FILE]...
//	column -t [-s SEPS] [-o SEP] [-R COLS] [-N NAMES] [-l N] [FILE]...
//
// Without -t, entries (lines) fill columns tab-aligned within WIDTH
// (default $COLUMNS, else 80: output is never a terminal). -t builds a
// table: columns padded to their widest cell, separated by two spaces or
// -o; empty lines are skipped. JSON output, tree mode, wrapping,
// truncation and hiding (-J -r -W -T -H -E -d -O -e -n -L) are not modeled.

var columnSpec = getopt.Spec{
	Short: "c:deE:H:i:Jl:LN:n:o:O:p:r:R:s:tT:W:x",
	Long: []getopt.Long{
		{"columns=", "c"}, {"fillrows", "x"}, {"help", "help"}, {"json", "J"},
		{"keep-empty-lines", "L"}, {"output-separator=", "o"}, {"separator=", "s"}, {"table", "t"},
		{"table-columns=", "N"}, {"table-columns-limit=", "l"}, {"table-hide=", "H"},
		{"table-name=", "n"}, {"table-noextreme=", "E"}, {"table-noheadings", "d"},
		{"table-order=", "O"}, {"table-right=", "R"}, {"table-truncate=", "T"},
		{"table-wrap=", "W"}, {"table-empty-lines", "e"}, {"tree=", "r"}, {"tree-id=", "i"},
		{"tree-parent=", "p"}, {"version", "version"},
	},
	GNUOrder: true,
}

// Column runs column.
func Column(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&columnSpec)
	if !ok {
		return p.status
	}
	width := 80
	if v, ok := inv.Env.Get("COLUMNS"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			width = n
		}
	}
	table, fillRows := false, false
	seps, outSep := " \t", "  "
	var right map[int]bool
	var names []string
	limit := 0
	for _, o := range opts {
		switch o.Name {
		case "c":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n <= 0 {
				p.warn("invalid columns argument: '%s'", o.Val)
				return p.exit(1)
			}
			width = n
		case "t":
			table = true
		case "s":
			seps = o.Val
		case "o":
			outSep = o.Val
		case "x":
			fillRows = true
		case "R":
			right = map[int]bool{}
			for _, f := range strings.Split(o.Val, ",") {
				n, err := strconv.Atoi(f)
				if err != nil || n < 1 {
					return p.partial("column -R NAME", "column: -R accepts only column numbers in shellsim")
				}
				right[n-1] = true
			}
		case "N":
			names = strings.Split(o.Val, ",")
		case "l":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				p.warn("invalid columns limit argument: '%s'", o.Val)
				return p.exit(1)
			}
			limit = n
		default:
			return p.partial("column -"+o.Name, "option -"+o.Name+" is not supported in shellsim")
		}
	}
	var lines []string
	status := 0
	for _, f := range defaultStdin(files) {
		data, err := p.readAll(f)
		if p.stop || err == errStop {
			return p.exit(1)
		}
		if err != nil {
			p.fileErr(f, err)
			status = 1
			continue
		}
		for _, l := range splitLines(data, '\n') {
			lines = append(lines, string(l))
		}
	}
	var out bytes.Buffer
	if table {
		columnTable(&out, lines, seps, outSep, right, names, limit)
	} else {
		var ents []string
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				ents = append(ents, l)
			}
		}
		columnFill(&out, ents, width, fillRows)
	}
	if !p.charge(int64(out.Len())) || !p.write(out.Bytes()) {
		return p.exit(1)
	}
	return p.exit(status)
}

func columnTable(out *bytes.Buffer, lines []string, seps, outSep string, right map[int]bool, names []string, limit int) {
	var rows [][]string
	if names != nil {
		rows = append(rows, names)
	}
	isSep := func(r rune) bool { return strings.ContainsRune(seps, r) }
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var cells []string
		if seps == " \t" {
			cells = strings.FieldsFunc(l, isSep)
		} else {
			start := 0
			for i, r := range l {
				if isSep(r) {
					cells = append(cells, l[start:i])
					start = i + len(string(r))
				}
			}
			cells = append(cells, l[start:])
		}
		if limit > 0 && len(cells) > limit {
			rest := strings.Join(cells[limit-1:], string([]rune(seps)[0]))
			cells = append(cells[:limit-1], rest)
		}
		rows = append(rows, cells)
	}
	ncol := 0
	for _, r := range rows {
		ncol = max(ncol, len(r))
	}
	widths := make([]int, ncol)
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], dispWidth(c))
		}
	}
	for _, r := range rows {
		for i := 0; i < ncol; i++ {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			pad := strings.Repeat(" ", widths[i]-dispWidth(c))
			switch {
			case right[i]:
				out.WriteString(pad + c)
			case i == ncol-1:
				out.WriteString(c)
			default:
				out.WriteString(c + pad)
			}
			if i < ncol-1 {
				out.WriteString(outSep)
			}
		}
		out.WriteByte('\n')
	}
}

// columnFill is util-linux's fill-columns (and -x fill-rows) layout.
func columnFill(out *bytes.Buffer, ents []string, width int, rowsFirst bool) {
	if len(ents) == 0 {
		return
	}
	maxLen := 0
	for _, e := range ents {
		maxLen = max(maxLen, dispWidth(e))
	}
	maxLen = (maxLen + 8) &^ 7
	if maxLen >= width {
		for _, e := range ents {
			out.WriteString(e + "\n")
		}
		return
	}
	numCols := max(width/maxLen, 1)
	tabTo := func(chcnt, endcol int) int {
		for {
			cnt := (chcnt + 8) &^ 7
			if cnt > endcol {
				return chcnt
			}
			out.WriteByte('\t')
			chcnt = cnt
		}
	}
	if rowsFirst {
		chcnt, col, endcol := 0, 0, maxLen
		for i, e := range ents {
			out.WriteString(e)
			chcnt += dispWidth(e)
			col++
			if col == numCols {
				chcnt, col, endcol = 0, 0, maxLen
				out.WriteByte('\n')
				continue
			}
			if i == len(ents)-1 {
				break
			}
			chcnt = tabTo(chcnt, endcol)
			endcol += maxLen
		}
		if chcnt > 0 {
			out.WriteByte('\n')
		}
		return
	}
	numRows := (len(ents) + numCols - 1) / numCols
	for row := 0; row < numRows; row++ {
		endcol, chcnt := maxLen, 0
		for base, col := row, 0; col < numCols; col++ {
			out.WriteString(ents[base])
			chcnt += dispWidth(ents[base])
			base += numRows
			if base >= len(ents) {
				break
			}
			chcnt = tabTo(chcnt, endcol)
			endcol += maxLen
		}
		out.WriteByte('\n')
	}
}

// dispWidth is a cell's width as util-linux measures it: control
// characters (tabs included) take no columns.
func dispWidth(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x20 && r != 0x7f {
			n++
		}
	}
	return n
}
