package system

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Free reports the simulated memory: the machine's memory limit as total.
//
//	free [-bkmgh] [--si] [-t] [-w]
func Free(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "bkmghtwl",
		Long: []getopt.Long{
			{"bytes", "b"}, {"count=", "c"}, {"gibi", "g"}, {"giga", "giga"}, {"human", "h"},
			{"kibi", "k"}, {"kilo", "kilo"}, {"lohi", "l"}, {"mebi", "m"}, {"mega", "mega"},
			{"seconds=", "s"}, {"si", "si"}, {"total", "t"}, {"wide", "w"},
		},
		Partial: map[string]bool{"s": true, "c": true, "si": true, "kilo": true, "mega": true, "giga": true, "w": true, "l": true},
		Help:    true,
	}
	opts, _, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	unit := int64(1024)
	hum, total := false, false
	for _, o := range opts {
		switch o.Name {
		case "b":
			unit = 1
		case "k":
			unit = 1024
		case "m":
			unit = 1 << 20
		case "g":
			unit = 1 << 30
		case "h":
			hum = true
		case "t":
			total = true
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	limit := inv.Sys.MemoryLimit()
	f := func(n int64) string {
		if hum {
			return humanFree(n)
		}
		return strconv.FormatInt(n/unit, 10)
	}
	w := bufio.NewWriter(inv.Stdout)
	fmt.Fprintf(w, "%20s%12s%12s%12s%12s%12s\n", "total", "used", "free", "shared", "buff/cache", "available")
	fmt.Fprintf(w, "%-8s%12s%12s%12s%12s%12s%12s\n", "Mem:", f(limit), f(0), f(limit), f(0), f(0), f(limit))
	fmt.Fprintf(w, "%-8s%12s%12s%12s\n", "Swap:", f(0), f(0), f(0))
	if total {
		fmt.Fprintf(w, "%-8s%12s%12s%12s\n", "Total:", f(limit), f(0), f(limit))
	}
	if w.Flush() != nil {
		return 1
	}
	return 0
}

// humanFree renders sizes as free -h does: "1.9Gi", "512Mi", "0B".
func humanFree(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + "B"
	}
	units := []string{"Ki", "Mi", "Gi", "Ti", "Pi"}
	v := float64(n) / 1024
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + units[i]
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + units[i]
}

// Ps reports the simulated logical processes.
//
//	ps [-eAf] [-o FORMAT] [-p PIDS] [aux]
//
// Columns for -o: pid ppid pgid stat state comm cmd args command user uid
// time etime tty (with an optional =HEADER).
func Ps(inv *command.Invocation) int {
	args := inv.Args[1:]
	all, full, bsd := false, false, false
	var cols []psCol
	var pids map[int]bool
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "aux" || a == "-aux" || a == "ax" || a == "axu" || a == "auxw" || a == "auxww" || a == "-ax":
			all, bsd = true, strings.Contains(a, "u")
		case a == "-e" || a == "-A" || a == "-ef" || a == "-fe" || a == "-eF" || a == "-Af":
			all = true
			full = full || strings.ContainsAny(a, "fF")
		case a == "-f" || a == "-F":
			full = true
		case a == "-o" || a == "--format" || strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "o"):
			spec := strings.TrimPrefix(strings.TrimPrefix(a, "-o"), "o")
			if a == "-o" || a == "--format" || spec == "" {
				if i+1 >= len(args) {
					errorf(inv, "option requires an argument -- 'o'")
					return 1
				}
				i++
				spec = args[i]
			}
			c, err := parsePsCols(spec)
			if err != nil {
				inv.Sys.Partial("ps -o " + err.Error())
				fmt.Fprintf(inv.Stderr, "error: unknown user-defined format specifier \"%s\"\n", err.Error())
				return 1
			}
			cols = append(cols, c...)
		case a == "-p" || a == "--pid" || a == "p":
			if i+1 >= len(args) {
				errorf(inv, "list of process IDs must follow -p")
				return 1
			}
			i++
			pids = map[int]bool{}
			for _, s := range strings.FieldsFunc(args[i], func(r rune) bool { return r == ',' || r == ' ' }) {
				n, err := strconv.Atoi(s)
				if err != nil {
					fmt.Fprintf(inv.Stderr, "error: process ID list syntax error\n")
					return 1
				}
				pids[n] = true
			}
		case isNum(a):
			if pids == nil {
				pids = map[int]bool{}
			}
			n, _ := strconv.Atoi(a)
			pids[n] = true
		default:
			inv.Sys.Partial("ps " + a)
			fmt.Fprintf(inv.Stderr, "ps: option %s is not supported in ShellSim\n", a)
			return 1
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	procs := inv.Sys.Processes()
	if cols == nil {
		switch {
		case bsd:
			cols, _ = parsePsCols("user,pid,%cpu,%mem,vsz,rss,tty,stat,start,bsdtime,command")
		case full:
			cols, _ = parsePsCols("user=UID,pid,ppid,c,stime,tty,time,cmd")
		default:
			cols, _ = parsePsCols("pid,tty,time,cmd")
		}
	}
	w := bufio.NewWriter(inv.Stdout)
	var rows [][]string
	for _, p := range procs {
		if pids != nil && !pids[p.PID] {
			continue
		}
		if pids == nil && !all && !bsd {
			// Without -e, ps shows the processes of this terminal session:
			// in the simulator that is every process.
			_ = p
		}
		row := make([]string, len(cols))
		for i, c := range cols {
			row[i] = c.value(inv, p)
		}
		rows = append(rows, row)
	}
	width := make([]int, len(cols))
	for i, c := range cols {
		width[i] = max(c.width, len(c.header))
		for _, r := range rows {
			if !c.left || i < len(cols)-1 {
				width[i] = max(width[i], len(r[i]))
			}
		}
	}
	line := func(vals []string) string {
		var b strings.Builder
		for i, c := range cols {
			if i > 0 {
				b.WriteByte(' ')
			}
			if i == len(cols)-1 && c.left {
				b.WriteString(vals[i])
			} else if c.left {
				fmt.Fprintf(&b, "%-*s", width[i], vals[i])
			} else {
				fmt.Fprintf(&b, "%*s", width[i], vals[i])
			}
		}
		return strings.TrimRight(b.String(), " ") + "\n"
	}
	hasHeader := false
	hdr := make([]string, len(cols))
	for i, c := range cols {
		hdr[i] = c.header
		if c.header != "" {
			hasHeader = true
		}
	}
	if hasHeader {
		w.WriteString(line(hdr))
	}
	for _, r := range rows {
		w.WriteString(line(r))
	}
	if w.Flush() != nil {
		return 1
	}
	if pids != nil && len(rows) == 0 {
		return 1
	}
	return 0
}

type psCol struct {
	key, header string
	left        bool
	width       int // procps' minimum column width
}

var psHeaders = map[string]struct {
	h     string
	left  bool
	width int
}{
	"pid": {"PID", false, 5}, "ppid": {"PPID", false, 5}, "pgid": {"PGID", false, 5}, "pgrp": {"PGRP", false, 5},
	"sid": {"SID", false, 5}, "stat": {"STAT", true, 4}, "state": {"S", true, 1}, "s": {"S", true, 1},
	"comm": {"COMMAND", true, 15}, "ucomm": {"COMMAND", true, 15}, "cmd": {"CMD", true, 0}, "args": {"COMMAND", true, 0},
	"command": {"COMMAND", true, 0}, "user": {"USER", true, 8}, "euser": {"EUSER", true, 8}, "uname": {"USER", true, 8},
	"uid": {"UID", false, 5}, "euid": {"EUID", false, 5}, "time": {"TIME", false, 8}, "cputime": {"TIME", false, 8},
	"bsdtime": {"TIME", false, 6}, "etime": {"ELAPSED", false, 11}, "etimes": {"ELAPSED", false, 7},
	"tty": {"TT", true, 8}, "tname": {"TTY", true, 8}, "c": {"C", false, 2}, "stime": {"STIME", true, 5},
	"start": {"START", true, 5}, "%cpu": {"%CPU", false, 4}, "pcpu": {"%CPU", false, 4}, "%mem": {"%MEM", false, 4},
	"pmem": {"%MEM", false, 4}, "vsz": {"VSZ", false, 6}, "rss": {"RSS", false, 5}, "nice": {"NI", false, 3},
	"ni": {"NI", false, 3},
}

func parsePsCols(spec string) ([]psCol, error) {
	var cols []psCol
	for _, f := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' }) {
		key, hdr, hasHdr := strings.Cut(f, "=")
		k := strings.ToLower(key)
		d, ok := psHeaders[k]
		if !ok {
			return nil, fmt.Errorf("%s", key)
		}
		c := psCol{key: k, header: d.h, left: d.left, width: d.width}
		if k == "tty" && !hasHdr {
			c.header = "TTY"
		}
		if hasHdr {
			c.header = hdr
		}
		cols = append(cols, c)
	}
	return cols, nil
}

func (c psCol) value(inv *command.Invocation, p command.Process) string {
	users := inv.Sys.Users()
	cmd := strings.Join(p.Cmdline, " ")
	comm := ""
	if len(p.Cmdline) > 0 {
		comm = p.Cmdline[0]
		if i := strings.LastIndexByte(comm, '/'); i >= 0 {
			comm = comm[i+1:]
		}
	}
	switch c.key {
	case "pid":
		return strconv.Itoa(p.PID)
	case "ppid":
		return strconv.Itoa(p.PPID)
	case "pgid", "pgrp":
		return strconv.Itoa(p.PGID)
	case "sid":
		return "1"
	case "stat", "state", "s":
		return p.State
	case "comm", "ucomm":
		return comm
	case "cmd", "args", "command":
		return cmd
	case "user", "euser", "uname":
		n, ok := users.UserName(users.UID())
		if !ok {
			n = strconv.Itoa(users.UID())
		}
		return n
	case "uid", "euid":
		return strconv.Itoa(users.UID())
	case "time", "cputime":
		s := int(p.CPU / time.Second)
		return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
	case "bsdtime":
		s := int(p.CPU / time.Second)
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	case "etime":
		s := int((inv.Sys.Uptime() - p.Start) / time.Second)
		if s >= 3600 {
			return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
		}
		return fmt.Sprintf("%02d:%02d", s/60, s%60)
	case "etimes":
		return strconv.Itoa(int((inv.Sys.Uptime() - p.Start) / time.Second))
	case "tty", "tname":
		return "?"
	case "c", "nice", "ni":
		return "0"
	case "stime", "start":
		now := inv.Sys.Now()
		return now.Add(p.Start - inv.Sys.Uptime()).UTC().Format("15:04")
	case "%cpu", "pcpu", "%mem", "pmem":
		return "0.0"
	case "vsz", "rss":
		return "0"
	}
	return "-"
}

func isNum(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
