package files

import (
	"bufio"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Du estimates file space usage.
//
//	du [-sahckmb] [-d N] [--max-depth=N] [FILE]...
//
// Space is modelled as whole 4 KiB blocks per file and directory (ext4's
// allocation); entries are visited in name order.
func Du(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "sahckmbd:xLPS0",
		Long: []getopt.Long{
			{"all", "a"}, {"apparent-size", "apparent"}, {"bytes", "b"}, {"dereference", "L"},
			{"exclude=", "exclude"}, {"human-readable", "h"}, {"max-depth=", "d"}, {"null", "0"},
			{"one-file-system", "x"}, {"si", "si"}, {"summarize", "s"}, {"time", "time"},
			{"total", "c"},
		},
		Partial: map[string]bool{"L": true, "S": true, "exclude": true, "si": true, "time": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	d := &duer{inv: inv, unit: 1024, maxDepth: -1}
	total := false
	for _, o := range opts {
		switch o.Name {
		case "s":
			d.maxDepth = 0
		case "a":
			d.all = true
		case "h":
			d.human = true
		case "c":
			total = true
		case "k":
			d.unit, d.human = 1024, false
		case "m":
			d.unit, d.human = 1024*1024, false
		case "b":
			d.unit, d.apparent, d.human = 1, true, false
		case "apparent":
			d.apparent = true
		case "0":
			d.nul = true
		case "d":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				errorf(inv, "invalid maximum depth %s", q(o.Val))
				return 1
			}
			d.maxDepth = n
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	d.w = bufio.NewWriter(inv.Stdout)
	d.seen = map[uint64]bool{}
	var sum int64
	status := 0
	for _, op := range operands {
		fi, err := inv.FS.Lstat(inv.Abs(op))
		if err != nil {
			d.w.Flush()
			errorf(inv, "cannot access %s: %s", q(op), command.Message(err))
			status = 1
			continue
		}
		n, err := d.walk(op, inv.Abs(op), fi, 0)
		if err != nil {
			return 1
		}
		sum += n
	}
	if total {
		d.line(sum, "total")
	}
	if err := d.w.Flush(); err != nil {
		return 1
	}
	return status | d.status
}

type duer struct {
	inv                       *command.Invocation
	w                         *bufio.Writer
	all, human, apparent, nul bool
	unit                      int64
	maxDepth, status          int
	seen                      map[uint64]bool
}

func (d *duer) size(fi command.FileInfo) int64 {
	if fi.Ino != 0 && fi.Nlink > 1 && !fi.IsDir() {
		if d.seen[fi.Ino] {
			return 0
		}
		d.seen[fi.Ino] = true
	}
	if d.apparent {
		if fi.IsDir() {
			return 4096
		}
		return fi.Size
	}
	return diskUsage(fi)
}

func (d *duer) line(n int64, name string) {
	var s string
	if d.human {
		s = human(n)
		if n == 0 {
			s = "0"
		}
	} else {
		s = strconv.FormatInt((n+d.unit-1)/d.unit, 10)
	}
	end := "\n"
	if d.nul {
		end = "\x00"
	}
	fmt.Fprintf(d.w, "%s\t%s%s", s, name, end)
}

func (d *duer) walk(name, p string, fi command.FileInfo, depth int) (int64, error) {
	if err := d.inv.Sys.Charge(10); err != nil {
		return 0, err
	}
	n := d.size(fi)
	if !fi.IsDir() {
		if depth == 0 || d.all && (d.maxDepth < 0 || depth <= d.maxDepth) {
			d.line(n, name)
		}
		return n, nil
	}
	ents, err := d.inv.FS.ReadDir(p)
	if err != nil {
		d.w.Flush() // gnulib's error() flushes stdout first
		errorf(d.inv, "cannot read directory %s: %s", q(name), command.Message(err))
		d.status = 1
	}
	for _, e := range ents {
		sub := strings.TrimSuffix(name, "/") + "/" + e.Name
		m, err := d.walk(sub, path.Join(p, e.Name), e, depth+1)
		if err != nil {
			return 0, err
		}
		n += m
	}
	if d.maxDepth < 0 || depth <= d.maxDepth {
		d.line(n, name)
	}
	return n, nil
}
