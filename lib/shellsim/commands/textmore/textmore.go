package textmore

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Commands returns shuf, tsort and unexpand, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "shuf", Trust: command.Real, Run: Shuf},
		{Name: "tsort", Trust: command.Real, Run: Tsort},
		{Name: "unexpand", Trust: command.Real, Run: Unexpand},
	}
}

func readAll(inv *command.Invocation, name string) ([]byte, error) {
	if name == "" || name == "-" {
		return io.ReadAll(io.LimitReader(inv.Stdin, 64<<20))
	}
	return inv.FS.ReadFile(inv.Abs(name))
}

// Shuf writes a random permutation of its input lines. The generator is
// seeded deterministically (from --random-source when given, else from the
// input and the virtual clock), so a simulation replays identically.
func Shuf(inv *command.Invocation) int {
	args := inv.Args[1:]
	var echo, repeat, zero bool
	count := -1
	rangeLo, rangeHi := 0, -1
	haveRange := false
	out, source := "", ""
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, bool) {
			if k := strings.IndexByte(a, '='); strings.HasPrefix(a, "--") && k > 0 {
				return a[k+1:], true
			}
			if len(a) > 2 && a[0] == '-' && a[1] != '-' {
				return a[2:], true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			fmt.Fprintf(inv.Stderr, "shuf: option requires an argument -- '%s'\nTry 'shuf --help' for more information.\n", strings.TrimLeft(a, "-"))
			return "", false
		}
		switch {
		case a == "-e" || a == "--echo":
			echo = true
		case a == "-r" || a == "--repeat":
			repeat = true
		case a == "-z" || a == "--zero-terminated":
			zero = true
		case strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "--head-count"):
			v, ok := val()
			if !ok {
				return 1
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				fmt.Fprintf(inv.Stderr, "shuf: invalid line count: '%s'\n", v)
				return 1
			}
			count = n
		case strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--input-range"):
			v, ok := val()
			if !ok {
				return 1
			}
			lo, hi, found := strings.Cut(v, "-")
			l, e1 := strconv.Atoi(lo)
			h, e2 := strconv.Atoi(hi)
			if !found || e1 != nil || e2 != nil || h < l-1 {
				fmt.Fprintf(inv.Stderr, "shuf: invalid input range: '%s'\n", v)
				return 1
			}
			rangeLo, rangeHi, haveRange = l, h, true
		case strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--output"):
			v, ok := val()
			if !ok {
				return 1
			}
			out = v
		case strings.HasPrefix(a, "--random-source"):
			v, ok := val()
			if !ok {
				return 1
			}
			source = v
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(inv.Stderr, "shuf: invalid option -- '%s'\nTry 'shuf --help' for more information.\n", strings.TrimLeft(a, "-"))
			return 1
		default:
			operands = append(operands, a)
		}
	}
	sep := byte('\n')
	if zero {
		sep = 0
	}
	var lines []string
	seed := fnv.New64a()
	switch {
	case haveRange:
		for v := rangeLo; v <= rangeHi; v++ {
			lines = append(lines, strconv.Itoa(v))
			if err := inv.Sys.Charge(1); err != nil {
				return 1
			}
		}
	case echo:
		lines = operands
	default:
		name := ""
		if len(operands) > 1 {
			fmt.Fprintf(inv.Stderr, "shuf: extra operand '%s'\nTry 'shuf --help' for more information.\n", operands[1])
			return 1
		}
		if len(operands) == 1 {
			name = operands[0]
		}
		data, err := readAll(inv, name)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "shuf: %s: %s\n", name, command.Message(err))
			return 1
		}
		inv.Sys.Charge(int64(len(data)/64 + 1))
		s := string(data)
		if s != "" {
			s = strings.TrimSuffix(s, string(sep))
			lines = strings.Split(s, string(sep))
		}
	}
	if source != "" {
		data, err := readAll(inv, source)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "shuf: %s: %s\n", source, command.Message(err))
			return 1
		}
		seed.Write(data)
	} else {
		for _, l := range lines {
			seed.Write([]byte(l))
		}
		fmt.Fprintf(seed, "%d", inv.Sys.Now().UnixNano())
	}
	s := seed.Sum64()
	rng := rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
	var w io.Writer = inv.Stdout
	var bw *strings.Builder
	if out != "" {
		bw = &strings.Builder{}
		w = bw
	}
	buf := bufio.NewWriter(w)
	if repeat {
		if len(lines) == 0 {
			fmt.Fprintln(inv.Stderr, "shuf: no lines to repeat")
			return 1
		}
		for i := 0; count < 0 || i < count; i++ {
			if err := inv.Sys.Charge(1); err != nil {
				return 1
			}
			buf.WriteString(lines[rng.IntN(len(lines))])
			buf.WriteByte(sep)
			if buf.Buffered() > 4096 {
				if err := buf.Flush(); err != nil {
					return 1
				}
			}
		}
	} else {
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		if count >= 0 && count < len(lines) {
			lines = lines[:count]
		}
		for _, l := range lines {
			buf.WriteString(l)
			buf.WriteByte(sep)
		}
	}
	if err := buf.Flush(); err != nil {
		return 1
	}
	if bw != nil {
		if err := inv.FS.WriteFile(inv.Abs(out), []byte(bw.String()), 0o644); err != nil {
			fmt.Fprintf(inv.Stderr, "shuf: %s: %s\n", out, command.Message(err))
			return 1
		}
	}
	return 0
}

// Tsort prints a total order consistent with the input's partial order,
// in GNU tsort's order (items kept in a sorted tree, successors visited
// most recent first).
func Tsort(inv *command.Invocation) int {
	args := inv.Args[1:]
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	data, err := readAll(inv, name)
	if err != nil {
		fmt.Fprintf(inv.Stderr, "tsort: %s: %s\n", name, command.Message(err))
		return 1
	}
	inv.Sys.Charge(int64(len(data)/64 + 1))
	toks := strings.Fields(string(data))
	if len(toks)%2 == 1 {
		label := name
		if label == "" {
			label = "-"
		}
		fmt.Fprintf(inv.Stderr, "tsort: %s: input contains an odd number of tokens\n", label)
		return 1
	}
	type item struct {
		count int
		succ  []string // most recent first
	}
	items := map[string]*item{}
	get := func(s string) *item {
		it, ok := items[s]
		if !ok {
			it = &item{}
			items[s] = it
		}
		return it
	}
	for i := 0; i < len(toks); i += 2 {
		a, b := toks[i], toks[i+1]
		ia := get(a)
		ib := get(b)
		if a != b {
			ia.succ = append([]string{b}, ia.succ...)
			ib.count++
		}
	}
	names := make([]string, 0, len(items))
	for n := range items {
		names = append(names, n)
	}
	sort.Strings(names)
	w := bufio.NewWriter(inv.Stdout)
	defer w.Flush()
	done := map[string]bool{}
	status := 0
	for len(done) < len(items) {
		var queue []string
		for _, n := range names {
			if !done[n] && items[n].count == 0 {
				queue = append(queue, n)
			}
		}
		if len(queue) == 0 {
			// a loop: report it and break it at the first remaining item
			label := name
			if label == "" {
				label = "-"
			}
			w.Flush()
			fmt.Fprintf(inv.Stderr, "tsort: %s: input contains a loop:\n", label)
			for _, n := range names {
				if !done[n] {
					fmt.Fprintf(inv.Stderr, "tsort: %s\n", n)
					items[n].count = 0
					break
				}
			}
			status = 1
			continue
		}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			if done[n] {
				continue
			}
			done[n] = true
			fmt.Fprintln(w, n)
			for _, s := range items[n].succ {
				items[s].count--
				if items[s].count == 0 && !done[s] {
					queue = append(queue, s)
				}
			}
		}
	}
	return status
}

// Unexpand converts leading blanks to tabs (all blanks with -a).
func Unexpand(inv *command.Invocation) int {
	args := inv.Args[1:]
	all := false
	tab := 8
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-a" || a == "--all":
			all = true
		case a == "--first-only":
			all = false
		case a == "-t" || a == "--tabs":
			if i+1 < len(args) {
				n, err := strconv.Atoi(args[i+1])
				if err != nil || n <= 0 {
					fmt.Fprintf(inv.Stderr, "unexpand: tab size contains invalid character(s): '%s'\n", args[i+1])
					return 1
				}
				tab, all = n, true
				i++
			}
		case strings.HasPrefix(a, "-t") || strings.HasPrefix(a, "--tabs="):
			v := strings.TrimPrefix(strings.TrimPrefix(a, "--tabs="), "-t")
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				fmt.Fprintf(inv.Stderr, "unexpand: tab size contains invalid character(s): '%s'\n", v)
				return 1
			}
			tab, all = n, true
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(inv.Stderr, "unexpand: invalid option -- '%s'\n", strings.TrimLeft(a, "-"))
			return 1
		default:
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := bufio.NewWriter(inv.Stdout)
	defer w.Flush()
	status := 0
	for _, f := range files {
		data, err := readAll(inv, f)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "unexpand: %s: %s\n", f, command.Message(err))
			status = 1
			continue
		}
		inv.Sys.Charge(int64(len(data)/64 + 1))
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if line == "" {
				continue
			}
			w.WriteString(unexpandLine(line, tab, all))
		}
	}
	return status
}

func unexpandLine(line string, tab int, all bool) string {
	var b strings.Builder
	col := 0
	pending := 0 // blanks not yet written
	leading := true
	flush := func() {
		b.WriteString(strings.Repeat(" ", pending))
		pending = 0
	}
	for _, r := range line {
		switch {
		case r == ' ' && (leading || all):
			pending++
			col++
			if col%tab == 0 {
				if pending > 1 {
					b.WriteByte('\t')
				} else {
					b.WriteByte(' ')
				}
				pending = 0
			}
		case r == '\t' && (leading || all):
			pending = 0
			b.WriteByte('\t')
			col = (col/tab + 1) * tab
		default:
			flush()
			leading = false
			b.WriteRune(r)
			if r == '\n' {
				col = 0
			} else {
				col++
			}
		}
	}
	flush()
	return b.String()
}
