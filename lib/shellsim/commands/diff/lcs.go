package diff

// The comparison engine follows GNU diffutils' analyze.c: identical ends
// are set aside (io.c find_identical_ends, in diff.go), lines with no
// match are discarded (discard_confusing_lines), Myers' O(ND) algorithm
// searches for the middle snake from both ends (diag and compareseq), and
// shift_boundaries slides each run of changes to the place GNU diff
// reports it. Checked against GNU diff 3.8 on thousands of random file
// pairs (random_host_test.go). No Go diff library reproduces GNU's choice
// among equally short scripts (go-difflib is unmaintained and follows
// Python's difflib; go-diff works on characters), and scripts compare our
// hunks to GNU's byte for byte, so the algorithm is written here.
// GNU's speed heuristics (--speed-large-files, too_expensive) only change
// results for very large inputs and are not modeled.

// compare computes which lines of a and b are changed. a and b hold
// equivalence class ids (equal lines share an id). charge is called with
// work units; it returns false to abort.
func compare(a, b []int, charge func(int64) bool) (ca, cb []bool, ok bool) {
	n, m := len(a), len(b)
	// ca/cb carry one sentinel slot on each side, as GNU's arrays do.
	ca = make([]bool, n+2)
	cb = make([]bool, m+2)
	// Lines GNU discards before the main comparison are changed outright;
	// the rest are compared through realindexes.
	ua, ra, ub, rb := discardConfusing(a, b, ca, cb)
	c := &ctx{a: ua, b: ub, ra: ra, rb: rb, ca: ca, cb: cb, charge: charge}
	size := len(ua) + len(ub) + 3
	c.fd = make([]int, size)
	c.bd = make([]int, size)
	c.off = len(ub) + 1
	if !c.seq(0, len(ua), 0, len(ub)) {
		return nil, nil, false
	}
	shift(ca, cb, a, n)
	shift(cb, ca, b, m)
	return ca[1 : n+1], cb[1 : m+1], true
}

// discardConfusing is GNU's discard_confusing_lines: a line with no match
// in the other file is certainly changed, and a line matching very many
// lines is dropped from the comparison when it sits inside a run of such
// lines. It returns the kept lines of each file and their real indexes,
// and marks the discarded ones in ca/cb (which have a sentinel at 0).
func discardConfusing(a, b []int, ca, cb []bool) (ua, ra, ub, rb []int) {
	maxID := 0
	for _, v := range a {
		maxID = max(maxID, v+1)
	}
	for _, v := range b {
		maxID = max(maxID, v+1)
	}
	count := [2][]int{make([]int, maxID), make([]int, maxID)}
	for _, v := range a {
		count[0][v]++
	}
	for _, v := range b {
		count[1][v]++
	}
	files := [2][]int{a, b}
	var discards [2][]byte
	for f := 0; f < 2; f++ {
		end := len(files[f])
		d := make([]byte, end)
		counts := count[1-f]
		many := 5
		for tem := end / 64; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			many *= 2
		}
		for i, v := range files[f] {
			switch n := counts[v]; {
			case n == 0:
				d[i] = 1
			case n > many:
				d[i] = 2
			}
		}
		discards[f] = d
	}
	for f := 0; f < 2; f++ {
		d := discards[f]
		end := len(d)
		for i := 0; i < end; i++ {
			if d[i] == 2 {
				d[i] = 0
				continue
			}
			if d[i] == 0 {
				continue
			}
			j, provisional := i, 0
			for ; j < end && d[j] != 0; j++ {
				if d[j] == 2 {
					provisional++
				}
			}
			for j > i && d[j-1] == 2 {
				j--
				d[j] = 0
				provisional--
			}
			length := j - i
			if provisional*4 > length {
				for j > i {
					j--
					if d[j] == 2 {
						d[j] = 0
					}
				}
				continue
			}
			minimum := 1
			for tem := length >> 2; ; {
				tem >>= 2
				if tem <= 0 {
					break
				}
				minimum <<= 1
			}
			minimum++
			consec := 0
			for j = 0; j < length; j++ {
				if d[i+j] != 2 {
					consec = 0
				} else if consec++; minimum == consec {
					j -= consec
				} else if minimum < consec {
					d[i+j] = 0
				}
			}
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && d[i+j] == 1 {
					break
				}
				if d[i+j] == 2 {
					consec = 0
					d[i+j] = 0
				} else if d[i+j] == 0 {
					consec = 0
				} else {
					consec++
				}
				if consec == 3 {
					break
				}
			}
			i += length - 1
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && d[i-j] == 1 {
					break
				}
				if d[i-j] == 2 {
					consec = 0
					d[i-j] = 0
				} else if d[i-j] == 0 {
					consec = 0
				} else {
					consec++
				}
				if consec == 3 {
					break
				}
			}
		}
	}
	keep := func(f int, changed []bool) (u, r []int) {
		for i, v := range files[f] {
			if discards[f][i] == 0 {
				u = append(u, v)
				r = append(r, i)
			} else {
				changed[i+1] = true
			}
		}
		return
	}
	ua, ra = keep(0, ca)
	ub, rb = keep(1, cb)
	return
}

type ctx struct {
	a, b   []int
	ra, rb []int // real line index of each compared line
	ca, cb []bool
	fd, bd []int
	off    int
	charge func(int64) bool
}

func (c *ctx) seq(xoff, xlim, yoff, ylim int) bool {
	for xoff < xlim && yoff < ylim && c.a[xoff] == c.b[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && c.a[xlim-1] == c.b[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			c.cb[c.rb[yoff]+1] = true
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			c.ca[c.ra[xoff]+1] = true
		}
	default:
		xmid, ymid, ok := c.diag(xoff, xlim, yoff, ylim)
		if !ok {
			return false
		}
		if !c.seq(xoff, xmid, yoff, ymid) || !c.seq(xmid, xlim, ymid, ylim) {
			return false
		}
	}
	return true
}

// diag finds the midpoint of a shortest edit script for the given ranges.
func (c *ctx) diag(xoff, xlim, yoff, ylim int) (int, int, bool) {
	fd := func(d int) *int { return &c.fd[d+c.off] }
	bd := func(d int) *int { return &c.bd[d+c.off] }
	const maxInt = int(^uint(0) >> 1)
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	odd := (fmid-bmid)&1 != 0
	*fd(fmid) = xoff
	*bd(bmid) = xlim
	for {
		if !c.charge(int64(dmax - dmin + 1)) {
			return 0, 0, false
		}
		if fmin > dmin {
			fmin--
			*fd(fmin - 1) = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			*fd(fmax + 1) = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := *fd(d - 1), *fd(d + 1)
			x0 := tlo + 1
			if tlo < thi {
				x0 = thi
			}
			x, y := x0, x0-d
			for x < xlim && y < ylim && c.a[x] == c.b[y] {
				x++
				y++
			}
			*fd(d) = x
			if odd && bmin <= d && d <= bmax && *bd(d) <= x {
				return x, y, true
			}
		}
		if bmin > dmin {
			bmin--
			*bd(bmin - 1) = maxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			*bd(bmax + 1) = maxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := *bd(d - 1), *bd(d + 1)
			x0 := thi - 1
			if tlo < thi {
				x0 = tlo
			}
			x, y := x0, x0-d
			for xoff < x && yoff < y && c.a[x-1] == c.b[y-1] {
				x--
				y--
			}
			*bd(d) = x
			if !odd && fmin <= d && d <= fmax && x <= *fd(d) {
				return x, y, true
			}
		}
	}
}

// shift is GNU's shift_boundaries for one side: it slides runs of changes
// so they merge with neighbours and, failing that, end as late as possible
// or line up with a run of changes on the other side. changed and other
// have a sentinel slot at each end (index 0 and len-1).
func shift(changed, other []bool, equivs []int, n int) {
	ch := func(i int) bool { return changed[i+1] }
	set := func(i int, v bool) { changed[i+1] = v }
	oc := func(j int) bool { return other[j+1] }
	i, j := 0, 0
	for {
		for i < n && !ch(i) {
			for oc(j) {
				j++
			}
			j++
			i++
		}
		if i == n {
			return
		}
		start := i
		i++
		for ch(i) {
			i++
		}
		for oc(j) {
			j++
		}
		var corresponding int
		for {
			runlength := i - start
			for start > 0 && equivs[start-1] == equivs[i-1] {
				start--
				set(start, true)
				i--
				set(i, false)
				for ch(start - 1) {
					start--
				}
				j--
				for oc(j) {
					j--
				}
			}
			if oc(j - 1) {
				corresponding = i
			} else {
				corresponding = n
			}
			for i != n && equivs[start] == equivs[i] {
				set(start, false)
				start++
				set(i, true)
				i++
				for ch(i) {
					i++
				}
				j++
				for oc(j) {
					j++
					corresponding = i
				}
			}
			if runlength == i-start {
				break
			}
		}
		for corresponding < i {
			start--
			set(start, true)
			i--
			set(i, false)
			j--
			for oc(j) {
				j--
			}
		}
	}
}

// change is one run of differences: lines a[i:i+del] replaced by b[j:j+ins].
type change struct {
	i, del, j, ins int
}

// script turns the changed flags into a list of changes.
func script(ca, cb []bool) []change {
	var out []change
	i, j := 0, 0
	for i < len(ca) || j < len(cb) {
		if (i < len(ca) && ca[i]) || (j < len(cb) && cb[j]) {
			c := change{i: i, j: j}
			for i < len(ca) && ca[i] {
				i++
				c.del++
			}
			for j < len(cb) && cb[j] {
				j++
				c.ins++
			}
			out = append(out, c)
			continue
		}
		i++
		j++
	}
	return out
}
