package git

import (
	"fmt"
	"sort"
	"strings"
)

type edit struct {
	op   byte // ' ', '-', '+'
	line string
}

func splitLinesKeep(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// myers computes a shortest edit script between a and b.
func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	if max > 20000 {
		var out []edit
		for _, l := range a {
			out = append(out, edit{'-', l})
		}
		for _, l := range b {
			out = append(out, edit{'+', l})
		}
		return out
	}
	v := make([]int, 2*max+2)
	var trace [][]int
	off := max + 1
	var dFinal int
outer:
	for d := 0; d <= max; d++ {
		snap := make([]int, len(v))
		copy(snap, v)
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				dFinal = d
				break outer
			}
		}
	}
	var out []edit
	x, y := n, m
	for d := dFinal; d > 0; d-- {
		vv := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && vv[off+k-1] < vv[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vv[off+pk]
		py := px - pk
		for x > px && y > py {
			out = append(out, edit{' ', a[x-1]})
			x--
			y--
		}
		if x == px {
			out = append(out, edit{'+', b[y-1]})
			y--
		} else {
			out = append(out, edit{'-', a[x-1]})
			x--
		}
	}
	for x > 0 && y > 0 {
		out = append(out, edit{' ', a[x-1]})
		x--
		y--
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// unified renders hunks with 3 lines of context.
func unified(a, b string) (string, int, int) {
	al, bl := splitLinesKeep(a), splitLinesKeep(b)
	es := myers(al, bl)
	adds, dels := 0, 0
	for _, e := range es {
		switch e.op {
		case '+':
			adds++
		case '-':
			dels++
		}
	}
	if adds == 0 && dels == 0 {
		return "", 0, 0
	}
	const ctx = 3
	var sb strings.Builder
	i := 0
	for i < len(es) {
		for i < len(es) && es[i].op == ' ' {
			i++
		}
		if i >= len(es) {
			break
		}
		start := i - ctx
		if start < 0 {
			start = 0
		}
		end := i
		for {
			for end < len(es) && es[end].op != ' ' {
				end++
			}
			j := end
			for j < len(es) && es[j].op == ' ' && j-end < 2*ctx+1 {
				j++
			}
			if j < len(es) && es[j].op != ' ' && j-end <= 2*ctx {
				end = j
				continue
			}
			break
		}
		stop := end + ctx
		if stop > len(es) {
			stop = len(es)
		}
		// line numbers
		aStart, bStart := 1, 1
		for _, e := range es[:start] {
			if e.op != '+' {
				aStart++
			}
			if e.op != '-' {
				bStart++
			}
		}
		aCount, bCount := 0, 0
		for _, e := range es[start:stop] {
			if e.op != '+' {
				aCount++
			}
			if e.op != '-' {
				bCount++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", rangeStr(aStart, aCount), rangeStr(bStart, bCount))
		for _, e := range es[start:stop] {
			sb.WriteByte(e.op)
			sb.WriteString(e.line)
			if !strings.HasSuffix(e.line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return sb.String(), adds, dels
}

func rangeStr(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if count == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

// merge3 merges ours and theirs relative to base line by line; conflicting
// regions get Git's conflict markers.
func merge3(base, ours, theirs, oursName, theirsName string) (string, bool) {
	b, o, t := splitLinesKeep(base), splitLinesKeep(ours), splitLinesKeep(theirs)
	// map base line index -> changes on each side as hunks
	type hunk struct {
		bs, be int // base range [bs, be)
		lines  []string
	}
	hunksOf := func(side []string) []hunk {
		es := myers(b, side)
		var hs []hunk
		bi := 0
		for i := 0; i < len(es); {
			if es[i].op == ' ' {
				bi++
				i++
				continue
			}
			h := hunk{bs: bi}
			for i < len(es) && es[i].op != ' ' {
				if es[i].op == '-' {
					bi++
				} else {
					h.lines = append(h.lines, es[i].line)
				}
				i++
			}
			h.be = bi
			hs = append(hs, h)
		}
		return hs
	}
	type tagged struct {
		hunk
		side byte
	}
	var all []tagged
	for _, h := range hunksOf(o) {
		all = append(all, tagged{h, 'o'})
	}
	for _, h := range hunksOf(t) {
		all = append(all, tagged{h, 't'})
	}
	sort.SliceStable(all, func(x, y int) bool { return all[x].bs < all[y].bs })
	var out strings.Builder
	conflict := false
	bi := 0
	for idx := 0; idx < len(all); {
		lo, hi := all[idx].bs, all[idx].be
		var fromO, fromT []hunk
		for idx < len(all) {
			h := all[idx]
			if len(fromO)+len(fromT) > 0 && !(h.bs < hi || h.bs == lo || (h.bs == hi && (h.bs == h.be || lo == hi))) {
				break
			}
			if h.side == 'o' {
				fromO = append(fromO, h.hunk)
			} else {
				fromT = append(fromT, h.hunk)
			}
			if h.be > hi {
				hi = h.be
			}
			idx++
		}
		for ; bi < lo; bi++ {
			out.WriteString(b[bi])
		}
		render := func(hs []hunk) string {
			var sb strings.Builder
			k := lo
			for _, h := range hs {
				for ; k < h.bs; k++ {
					sb.WriteString(b[k])
				}
				for _, l := range h.lines {
					sb.WriteString(l)
				}
				k = h.be
			}
			for ; k < hi; k++ {
				sb.WriteString(b[k])
			}
			return sb.String()
		}
		so, st := render(fromO), render(fromT)
		switch {
		case len(fromT) == 0:
			out.WriteString(so)
		case len(fromO) == 0:
			out.WriteString(st)
		case so == st:
			out.WriteString(so)
		default:
			conflict = true
			out.WriteString("<<<<<<< " + oursName + "\n")
			out.WriteString(ensureNL(so))
			out.WriteString("=======\n")
			out.WriteString(ensureNL(st))
			out.WriteString(">>>>>>> " + theirsName + "\n")
		}
		bi = hi
	}
	for ; bi < len(b); bi++ {
		out.WriteString(b[bi])
	}
	return out.String(), conflict
}

func ensureNL(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
