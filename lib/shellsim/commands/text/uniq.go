package text

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// uniq - report or omit repeated lines
//
//	uniq [-cdDiuz] [-f N] [-s N] [-w N] [--all-repeated[=METHOD]]
//	     [--group[=METHOD]] [INPUT [OUTPUT]]
//
// Adjacent equal lines form a group; comparison skips N fields (-f) and
// then N characters (-s) and looks at most at N characters (-w).

var uniqSpec = getopt.Spec{
	Short: "cdDf:is:uw:z",
	Long: []getopt.Long{
		{"count", "c"}, {"repeated", "d"}, {"all-repeated", "D"}, {"all-repeated=", "D"},
		{"group", "group"}, {"group=", "group"}, {"ignore-case", "i"}, {"unique", "u"},
		{"skip-fields=", "f"}, {"skip-chars=", "s"}, {"check-chars=", "w"},
		{"zero-terminated", "z"}, {"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

// Uniq runs uniq.
func Uniq(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, args, ok := p.parse(&uniqSpec)
	if !ok {
		return p.status
	}
	var count, repeated, unique, icase, allRep bool
	allMethod, group := "none", ""
	skipF, skipC, check := 0, 0, -1
	term := byte('\n')
	num := func(arg, what string) (int, bool) {
		v, err := strconv.ParseInt(arg, 10, 64)
		if err != nil || v < 0 {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && arg[0] != '-' {
				return int(^uint(0) >> 1), true
			}
			p.warn("%s: invalid number of %s", arg, what)
			return 0, false
		}
		return int(v), true
	}
	for _, o := range opts {
		switch o.Name {
		case "c":
			count = true
		case "d":
			repeated = true
		case "D":
			allRep = true
			if o.HasVal {
				switch o.Val {
				case "none", "prepend", "separate":
					allMethod = o.Val
				default:
					p.warn("invalid argument %s for %s", quote(o.Val), quote("--all-repeated"))
					p.errLines("Valid arguments are:\n  - \uE000none\uE001\n  - \uE000prepend\uE001\n  - \uE000separate\uE001\n")
					return p.usageErr("")
				}
			}
		case "group":
			group = "separate"
			if o.HasVal {
				switch o.Val {
				case "prepend", "append", "separate", "both":
					group = o.Val
				default:
					p.warn("invalid argument %s for %s", quote(o.Val), quote("--group"))
					p.errLines("Valid arguments are:\n  - \uE000prepend\uE001\n  - \uE000append\uE001\n  - \uE000separate\uE001\n  - \uE000both\uE001\n")
					return p.usageErr("")
				}
			}
		case "f":
			if skipF, ok = num(o.Val, "fields to skip"); !ok {
				return p.exit(1)
			}
		case "s":
			if skipC, ok = num(o.Val, "bytes to skip"); !ok {
				return p.exit(1)
			}
		case "w":
			if check, ok = num(o.Val, "bytes to compare"); !ok {
				return p.exit(1)
			}
		case "i":
			icase = true
		case "u":
			unique = true
		case "z":
			term = 0
		}
	}
	if len(args) > 2 {
		return p.usageErr("extra operand %s", quote(args[2]))
	}
	if group != "" && (repeated || unique || count || allRep) {
		return p.usageErr("--group is mutually exclusive with -c/-d/-D/-u")
	}
	if allRep && count {
		return p.usageErr("printing all duplicated lines and repeat counts is meaningless")
	}
	in := "-"
	if len(args) > 0 {
		in = args[0]
	}
	r, err := p.open(in)
	if err != nil {
		p.fileErr(in, err)
		return p.exit(1)
	}
	defer r.Close()
	if len(args) == 2 && args[1] != "-" {
		f, err := p.FS.OpenFile(p.Abs(args[1]), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			p.fileErr(args[1], err)
			return p.exit(1)
		}
		defer f.Close()
		p.out.Reset(f)
	}

	key := func(l []byte) []byte {
		i := 0
		for n := 0; n < skipF && i < len(l); n++ {
			for i < len(l) && isBlank(l[i]) {
				i++
			}
			for i < len(l) && !isBlank(l[i]) {
				i++
			}
		}
		i += min(skipC, len(l)-i)
		k := l[i:]
		if check >= 0 && len(k) > check {
			k = k[:check]
		}
		return k
	}
	equal := func(a, b []byte) bool {
		ka, kb := key(a), key(b)
		if icase {
			return bytes.EqualFold(ka, kb)
		}
		return bytes.Equal(ka, kb)
	}

	var prev []byte
	var n int64
	groups := 0
	emitLine := func(l []byte) bool {
		return p.write(l) && p.write([]byte{term})
	}
	// flushGroup outputs the finished group of n copies of prev.
	flushGroup := func() bool {
		if n == 0 {
			return true
		}
		switch {
		case group != "":
			return true
		case allRep:
			return true // printed as lines arrive
		case repeated && n < 2, unique && n > 1:
			return true
		case count:
			return p.writeString(fmt.Sprintf("%7d ", n)) && emitLine(prev)
		}
		return emitLine(prev)
	}
	lr := newLineReader(r, term)
	repPrinted := false     // --all-repeated=separate: a group was printed
	var pendingFirst []byte // -D: the first line of a group, printed once repeated
	for {
		raw, err := lr.next()
		if len(raw) > 0 {
			line := raw
			if line[len(line)-1] == term {
				line = line[:len(line)-1]
			}
			same := n > 0 && equal(prev, line)
			if !same {
				if !flushGroup() {
					return p.exit(1)
				}
				if group != "" {
					if (groups > 0 && (group == "separate" || group == "both")) ||
						(group == "prepend" || (group == "both" && groups == 0)) {
						p.write([]byte{term})
					}
					if groups > 0 && group == "append" {
						p.write([]byte{term})
					}
				}
				groups++
				prev = append(prev[:0], line...)
				n = 1
				pendingFirst = append(pendingFirst[:0], line...)
			} else {
				n++
			}
			if group != "" {
				emitLine(line)
			}
			if allRep && same {
				if n == 2 {
					if allMethod == "prepend" || (allMethod == "separate" && repPrinted) {
						p.write([]byte{term})
					}
					repPrinted = true
					emitLine(pendingFirst)
				}
				emitLine(line)
			}
			if p.stop {
				return p.exit(1)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if err == errStop {
				return p.exit(1)
			}
			p.fileErr(in, err)
			return p.exit(1)
		}
	}
	flushGroup()
	if group == "append" || group == "both" {
		if groups > 0 {
			p.write([]byte{term})
		}
	}
	return p.exit(0)
}
