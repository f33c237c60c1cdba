package proctools

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "pgrep", Trust: command.Real, Run: Pgrep},
		{Name: "pkill", Trust: command.Real, Run: Pkill},
		{Name: "killall", Trust: command.Partial, Run: Killall},
		{Name: "nohup", Trust: command.Real, Run: Nohup},
		{Name: "nice", Trust: command.Real, Run: Nice},
		{Name: "groups", Trust: command.Real, Run: Groups},
		{Name: "flock", Trust: command.Partial, Run: Flock},
		{Name: "usleep", Trust: command.Real, Run: Usleep},
		{Name: "sync", Trust: command.Real, Run: func(inv *command.Invocation) int { return 0 }},
		{Name: "arch", Trust: command.Real, Run: func(inv *command.Invocation) int {
			fmt.Fprintln(inv.Stdout, "x86_64")
			return 0
		}},
		{Name: "logname", Trust: command.Real, Run: Logname},
		{Name: "getconf", Trust: command.Partial, Run: Getconf},
		{Name: "netstat", Trust: command.Partial, Run: Netstat},
		{Name: "ss", Trust: command.Partial, Run: SS},
		{Name: "lsof", Trust: command.Partial, Run: Lsof},
	}
}

var signals = map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "CONT": 18, "STOP": 19, "TSTP": 20}

func parseSignal(s string) (int, bool) {
	s = strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if n, err := strconv.Atoi(s); err == nil && n > 0 && n < 65 {
		return n, true
	}
	n, ok := signals[s]
	return n, ok
}

type pgrepOpts struct {
	full, exact, list, listFull, newest, oldest, count, invert bool
	delim                                                      string
	sig                                                        int
	parent                                                     int
	pattern                                                    string
}

// matches lists processes matching the options, excluding the caller.
func matches(inv *command.Invocation, o *pgrepOpts) ([]command.Process, error) {
	re, err := regexp.Compile(o.pattern)
	if err != nil {
		return nil, err
	}
	var out []command.Process
	self := inv.Sys.PID()
	for _, p := range inv.Sys.Processes() {
		if p.PID == self || p.State == "Z" {
			continue
		}
		if o.parent > 0 && p.PPID != o.parent {
			continue
		}
		name := ""
		if len(p.Cmdline) > 0 {
			name = p.Cmdline[0]
			if i := strings.LastIndexByte(name, '/'); i >= 0 {
				name = name[i+1:]
			}
		}
		subject := name
		if o.full {
			subject = strings.Join(p.Cmdline, " ")
		}
		var hit bool
		if o.exact {
			hit = re.FindString(subject) == subject && re.MatchString(subject)
		} else {
			hit = re.MatchString(subject)
		}
		if hit != o.invert {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	if o.newest && len(out) > 0 {
		out = out[len(out)-1:]
	}
	if o.oldest && len(out) > 0 {
		out = out[:1]
	}
	return out, nil
}

func parsePgrep(inv *command.Invocation, kill bool) (*pgrepOpts, int) {
	o := &pgrepOpts{delim: "\n", sig: 15}
	name := inv.Args[0]
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			if o.pattern != "" {
				fmt.Fprintf(inv.Stderr, "%s: only one pattern can be provided\nTry `%s --help' for more information.\n", name, name)
				return nil, 2
			}
			o.pattern = a
			continue
		}
		if kill {
			if n, ok := parseSignal(a[1:]); ok && !strings.HasPrefix(a, "--") && a != "-f" && a != "-x" && a != "-n" && a != "-o" && a != "-c" && a != "-e" {
				o.sig = n
				continue
			}
		}
		switch a {
		case "-f", "--full":
			o.full = true
		case "-x", "--exact":
			o.exact = true
		case "-l", "--list-name":
			o.list = true
		case "-a", "--list-full":
			o.listFull = true
		case "-n", "--newest":
			o.newest = true
		case "-o", "--oldest":
			o.oldest = true
		case "-c", "--count":
			o.count = true
		case "-v", "--inverse":
			o.invert = true
		case "-e", "--echo":
			o.list = true
		case "-d", "--delimiter":
			if i+1 < len(args) {
				o.delim = args[i+1]
				i++
			}
		case "-P", "--parent":
			if i+1 < len(args) {
				o.parent, _ = strconv.Atoi(args[i+1])
				i++
			}
		case "-s", "--signal":
			if i+1 < len(args) {
				n, ok := parseSignal(args[i+1])
				if !ok {
					fmt.Fprintf(inv.Stderr, "%s: Unknown signal \"%s\".\n", name, args[i+1])
					return nil, 2
				}
				o.sig = n
				i++
			}
		case "-u", "-U", "-g", "-G", "-t":
			inv.Sys.Partial(name + " " + a)
			i++
		default:
			fmt.Fprintf(inv.Stderr, "%s: invalid option -- '%s'\nTry `%s --help' for more information.\n", name, strings.TrimLeft(a, "-"), name)
			return nil, 2
		}
	}
	if o.pattern == "" && o.parent == 0 {
		fmt.Fprintf(inv.Stderr, "%s: no matching criteria specified\nTry `%s --help' for more information.\n", name, name)
		return nil, 2
	}
	if o.pattern == "" {
		o.pattern = ".*"
	}
	return o, 0
}

// Pgrep lists matching processes.
func Pgrep(inv *command.Invocation) int {
	o, st := parsePgrep(inv, false)
	if o == nil {
		return st
	}
	ps, err := matches(inv, o)
	if err != nil {
		fmt.Fprintf(inv.Stderr, "pgrep: %v\n", err)
		return 2
	}
	if o.count {
		fmt.Fprintln(inv.Stdout, len(ps))
	} else {
		var parts []string
		for _, p := range ps {
			switch {
			case o.listFull:
				parts = append(parts, fmt.Sprintf("%d %s", p.PID, strings.Join(p.Cmdline, " ")))
			case o.list:
				name := ""
				if len(p.Cmdline) > 0 {
					name = p.Cmdline[0]
				}
				parts = append(parts, fmt.Sprintf("%d %s", p.PID, name))
			default:
				parts = append(parts, strconv.Itoa(p.PID))
			}
		}
		if len(parts) > 0 {
			fmt.Fprint(inv.Stdout, strings.Join(parts, o.delim)+"\n")
		}
	}
	if len(ps) == 0 {
		return 1
	}
	return 0
}

func signalPIDs(inv *command.Invocation, name string, sig int, pids []int) int {
	if len(pids) == 0 {
		return 1
	}
	args := []string{"kill", "-" + strconv.Itoa(sig)}
	for _, p := range pids {
		args = append(args, strconv.Itoa(p))
	}
	st, err := inv.Sys.Exec(command.ExecRequest{Args: args, Stdout: inv.Stdout, Stderr: inv.Stderr})
	if err != nil && st == 0 {
		return 1
	}
	if st != 0 {
		return 1
	}
	return 0
}

// Pkill signals matching processes.
func Pkill(inv *command.Invocation) int {
	o, st := parsePgrep(inv, true)
	if o == nil {
		return st
	}
	ps, err := matches(inv, o)
	if err != nil {
		fmt.Fprintf(inv.Stderr, "pkill: %v\n", err)
		return 2
	}
	var pids []int
	for _, p := range ps {
		pids = append(pids, p.PID)
		if o.list {
			fmt.Fprintf(inv.Stdout, "%s killed (pid %d)\n", p.Cmdline[0], p.PID)
		}
	}
	if o.count {
		fmt.Fprintln(inv.Stdout, len(pids))
	}
	return signalPIDs(inv, "pkill", o.sig, pids)
}

// Killall signals processes by exact name.
func Killall(inv *command.Invocation) int {
	sig := 15
	quiet := false
	var names []string
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-s" || a == "--signal":
			if i+1 < len(args) {
				n, ok := parseSignal(args[i+1])
				if !ok {
					fmt.Fprintf(inv.Stderr, "killall: %s: unknown signal; killall -l lists signals.\n", args[i+1])
					return 1
				}
				sig = n
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			n, ok := parseSignal(a[1:])
			if !ok {
				inv.Sys.Partial("killall " + a)
				continue
			}
			sig = n
		default:
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		fmt.Fprintln(inv.Stderr, "Usage: killall [OPTION]... [--] NAME...")
		return 1
	}
	status := 0
	for _, n := range names {
		o := &pgrepOpts{pattern: "^" + regexp.QuoteMeta(n) + "$"}
		ps, _ := matches(inv, o)
		if len(ps) == 0 {
			if !quiet {
				fmt.Fprintf(inv.Stderr, "%s: no process found\n", n)
			}
			status = 1
			continue
		}
		var pids []int
		for _, p := range ps {
			pids = append(pids, p.PID)
		}
		if signalPIDs(inv, "killall", sig, pids) != 0 {
			status = 1
		}
	}
	return status
}

// Nohup runs a command immune to hangups; output that would go to a
// terminal goes to nohup.out (the simulation's output is never a terminal,
// so it passes through).
func Nohup(inv *command.Invocation) int {
	args := inv.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(inv.Stderr, "nohup: missing operand\nTry 'nohup --help' for more information.")
		return 125
	}
	st, err := inv.Sys.Exec(command.ExecRequest{Args: args, Stdin: inv.Stdin, Stdout: inv.Stdout, Stderr: inv.Stderr})
	if err != nil && st == 127 {
		return 127
	}
	return st
}

// Nice runs a command at an adjusted niceness. The simulation schedules
// one process at a time, so niceness only shows in what nice itself prints:
// with no command it prints the current niceness (always 0).
func Nice(inv *command.Invocation) int {
	args := inv.Args[1:]
	adj := "10"
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			args = args[1:]
			goto run
		case a == "-n" || a == "--adjustment":
			if len(args) < 2 {
				fmt.Fprintf(inv.Stderr, "nice: option requires an argument -- 'n'\nTry 'nice --help' for more information.\n")
				return 125
			}
			adj, args = args[1], args[2:]
		case strings.HasPrefix(a, "--adjustment="):
			adj, args = strings.TrimPrefix(a, "--adjustment="), args[1:]
		case strings.HasPrefix(a, "-n"):
			adj, args = a[2:], args[1:]
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "" ||
			len(a) > 2 && a[:2] == "--" && strings.Trim(a[2:], "0123456789") == "":
			adj, args = strings.TrimLeft(a, "-"), args[1:]
			if strings.HasPrefix(a, "--") {
				adj = "-" + adj
			}
		case len(a) > 1 && a[0] == '-':
			fmt.Fprintf(inv.Stderr, "nice: invalid option -- '%s'\nTry 'nice --help' for more information.\n", strings.TrimLeft(a, "-")[:1])
			return 125
		default:
			goto run
		}
	}
run:
	if _, err := strconv.Atoi(adj); err != nil {
		fmt.Fprintf(inv.Stderr, "nice: invalid adjustment '%s'\n", adj)
		return 125
	}
	if len(args) == 0 {
		fmt.Fprintln(inv.Stdout, "0")
		return 0
	}
	st, _ := inv.Sys.Exec(command.ExecRequest{Args: args, Stdin: inv.Stdin, Stdout: inv.Stdout, Stderr: inv.Stderr})
	return st
}

// Groups prints the groups of the current user or of each named user.
// Users of the simulated machine belong to their primary group only.
func Groups(inv *command.Invocation) int {
	u := inv.Sys.Users()
	gname := func(gid int) string {
		if s, ok := u.GroupName(gid); ok {
			return s
		}
		return strconv.Itoa(gid)
	}
	names := inv.Args[1:]
	if len(names) > 0 && names[0] == "--" {
		names = names[1:]
	}
	if len(names) == 0 {
		fmt.Fprintln(inv.Stdout, gname(u.GID()))
		return 0
	}
	st := 0
	for _, n := range names {
		uid, ok := u.LookupUser(n)
		if !ok {
			fmt.Fprintf(inv.Stderr, "groups: '%s': no such user\n", n)
			st = 1
			continue
		}
		gid := uid
		if g, ok := u.LookupGroup(n); ok {
			gid = g
		}
		fmt.Fprintf(inv.Stdout, "%s : %s\n", n, gname(gid))
	}
	return st
}

// Flock runs a command holding a lock file. Processes in the simulation
// are scheduled one at a time, so the lock is always free: flock creates the
// lock file and runs the command.
func Flock(inv *command.Invocation) int {
	args := inv.Args[1:]
	lock := ""
	var cmd []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case lock != "" && (a == "-c" || a == "--command"):
			if i+1 >= len(args) {
				fmt.Fprintln(inv.Stderr, "flock: -c requires an argument")
				return 64
			}
			cmd = []string{"sh", "-c", args[i+1]}
			i = len(args)
		case a == "-w" || a == "--wait" || a == "--timeout" || a == "-E" || a == "--conflict-exit-code":
			i++
		case a == "--":
			if lock == "" && i+1 < len(args) {
				lock = args[i+1]
				i++
				continue
			}
			cmd = args[i+1:]
			i = len(args)
		case strings.HasPrefix(a, "-") && lock == "":
		case lock == "":
			lock = a
		default:
			cmd = args[i:]
			i = len(args)
		}
	}
	if lock == "" {
		fmt.Fprintln(inv.Stderr, "flock: bad usage\nTry 'flock --help' for more information.")
		return 64
	}
	if _, err := strconv.Atoi(lock); err == nil {
		return 0 // a file descriptor: nothing to wait for
	}
	p := inv.Abs(lock)
	if _, err := inv.FS.Stat(p); err != nil {
		if err := inv.FS.WriteFile(p, nil, 0o644); err != nil {
			fmt.Fprintf(inv.Stderr, "flock: cannot open lock file %s: %s\n", lock, command.Message(err))
			return 66
		}
	}
	if len(cmd) == 0 {
		return 0
	}
	st, _ := inv.Sys.Exec(command.ExecRequest{Args: cmd, Stdin: inv.Stdin, Stdout: inv.Stdout, Stderr: inv.Stderr})
	return st
}

// Usleep sleeps for microseconds of virtual time.
func Usleep(inv *command.Invocation) int {
	n := int64(1)
	if len(inv.Args) > 1 {
		v, err := strconv.ParseInt(inv.Args[1], 10, 64)
		if err != nil || v < 0 {
			fmt.Fprintf(inv.Stderr, "usleep: invalid number '%s'\n", inv.Args[1])
			return 1
		}
		n = v
	}
	if err := inv.Sys.Sleep(time.Duration(n) * time.Microsecond); err != nil {
		return 130
	}
	return 0
}

// Logname prints the login name.
func Logname(inv *command.Invocation) int {
	u := inv.Sys.Users()
	name, ok := u.UserName(u.UID())
	if !ok {
		fmt.Fprintln(inv.Stderr, "logname: no login name")
		return 1
	}
	fmt.Fprintln(inv.Stdout, name)
	return 0
}

var confVars = map[string]string{
	"PAGESIZE": "4096", "PAGE_SIZE": "4096", "NPROCESSORS_ONLN": "1", "_NPROCESSORS_ONLN": "1", "_NPROCESSORS_CONF": "1",
	"NPROCESSORS_CONF": "1", "ARG_MAX": "2097152", "CLK_TCK": "100", "LONG_BIT": "64", "PATH_MAX": "4096", "NAME_MAX": "255",
	"OPEN_MAX": "1024", "CHILD_MAX": "4096", "LINE_MAX": "2048", "HOST_NAME_MAX": "64", "LOGIN_NAME_MAX": "256",
	"INT_MAX": "2147483647", "UINT_MAX": "4294967295", "GNU_LIBC_VERSION": "glibc 2.36", "PATH": "/bin:/usr/bin",
}

// Getconf prints configuration values of the simulated machine.
func Getconf(inv *command.Invocation) int {
	args := inv.Args[1:]
	if len(args) == 0 {
		fmt.Fprintln(inv.Stderr, "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]")
		return 1
	}
	if args[0] == "-a" {
		keys := make([]string, 0, len(confVars))
		for k := range confVars {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(inv.Stdout, "%-35s%s\n", k, confVars[k])
		}
		return 0
	}
	if args[0] == "_PHYS_PAGES" || args[0] == "PHYS_PAGES" {
		fmt.Fprintln(inv.Stdout, inv.Sys.MemoryLimit()/4096)
		return 0
	}
	v, ok := confVars[args[0]]
	if !ok {
		fmt.Fprintf(inv.Stderr, "getconf: Unrecognized variable '%s'\n", args[0])
		return 1
	}
	fmt.Fprintln(inv.Stdout, v)
	return 0
}

// Netstat shows the (empty) socket tables of the simulation.
func Netstat(inv *command.Invocation) int {
	fmt.Fprintln(inv.Stdout, "Active Internet connections (servers and established)\nProto Recv-Q Send-Q Local Address           Foreign Address         State")
	fmt.Fprintln(inv.Stdout, "Active UNIX domain sockets (servers and established)\nProto RefCnt Flags       Type       State         I-Node   Path")
	return 0
}

// SS shows the (empty) socket table of the simulation.
func SS(inv *command.Invocation) int {
	fmt.Fprintln(inv.Stdout, "Netid State  Recv-Q Send-Q Local Address:Port Peer Address:Port Process")
	return 0
}

// Lsof lists open files of simulated processes: each process's standard
// descriptors and working directory (the simulation tracks no other
// descriptors per process).
func Lsof(inv *command.Invocation) int {
	args := inv.Args[1:]
	for _, a := range args {
		if strings.HasPrefix(a, "-i") {
			return 1 // no network files
		}
	}
	fmt.Fprintln(inv.Stdout, "COMMAND   PID USER   FD   TYPE DEVICE SIZE/OFF NODE NAME")
	u := inv.Sys.Users()
	user, _ := u.UserName(u.UID())
	for _, p := range inv.Sys.Processes() {
		name := "?"
		if len(p.Cmdline) > 0 {
			name = p.Cmdline[0]
		}
		if len(name) > 9 {
			name = name[:9]
		}
		fmt.Fprintf(inv.Stdout, "%-9s %5d %-6s %4s %4s %6s %8s %4s %s\n", name, p.PID, user, "cwd", "DIR", "0,1", "4096", "1", "/")
	}
	return 0
}
