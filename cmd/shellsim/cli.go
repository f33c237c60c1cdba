package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/shell"
)

const usage = `usage: shellsim [LIMITS] -c SOURCE [ARG0 [ARGS...]]
       shellsim [LIMITS] run SCRIPT [ARGS...]
       shellsim [LIMITS] shell [LIMITS] [-- ARGS...]
       shellsim [LIMITS] eval [LIMITS] [-c SOURCE] [-- ARGS...]
       shellsim [LIMITS] python PROJECT [--pytest] [--entry FILE] [-- ARGS...]
       shellsim [LIMITS]            (script source on stdin)

LIMITS: --cpu N --memory N --disk N --output N (N may end in k, m or g: binary multiples)
`

func usageErr(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "shellsim: "+format+"\n", a...)
	io.WriteString(stderr, usage)
	return 2
}

// parseCount parses N with an optional k/m/g binary suffix.
func parseCount(s string) (int64, bool) {
	mult := int64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult, s = 1<<10, s[:n-1]
		case 'm', 'M':
			mult, s = 1<<20, s[:n-1]
		case 'g', 'G':
			mult, s = 1<<30, s[:n-1]
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > (1<<62)/mult {
		return 0, false
	}
	return v * mult, true
}

// limitFlags consumes leading limit flags from args.
func limitFlags(args []string, l *shellsim.Limits, stderr io.Writer) ([]string, int, bool) {
	for len(args) > 0 {
		a := args[0]
		name, val, hasVal := strings.Cut(a, "=")
		var dst *int64
		switch name {
		case "--cpu":
			dst = &l.CPU
		case "--memory":
			dst = &l.Memory
		case "--disk":
			dst = &l.Disk
		case "--output":
			dst = &l.Output
		default:
			return args, 0, true
		}
		if !hasVal {
			if len(args) < 2 {
				return nil, usageErr(stderr, "%s requires a count, optionally suffixed with k, m, or g", name), false
			}
			val, args = args[1], args[1:]
		}
		n, ok := parseCount(val)
		if !ok {
			return nil, usageErr(stderr, "%s requires a count, optionally suffixed with k, m, or g", name), false
		}
		*dst = n
		args = args[1:]
	}
	return args, 0, true
}

func stdinBytes(stdin *os.File) []byte {
	if stdin == nil || isTerminal(stdin) {
		return nil
	}
	b, _ := io.ReadAll(stdin)
	return b
}

func run(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	limits := shellsim.DefaultLimits()
	args, code, ok := limitFlags(args, &limits, stderr)
	if !ok {
		return code
	}
	if len(args) == 0 {
		src, _ := io.ReadAll(stdin)
		return runOnce(limits, string(src), nil, "bash", nil, stdout, stderr)
	}
	switch args[0] {
	case "-h", "--help", "help":
		io.WriteString(stdout, usage)
		return 0
	case "-c":
		if len(args) < 2 {
			return usageErr(stderr, "-c requires an argument")
		}
		arg0, params := "bash", []string{}
		if len(args) > 2 {
			arg0, params = args[2], args[3:]
		}
		return runOnce(limits, args[1], stdinBytes(stdin), arg0, params, stdout, stderr)
	case "python":
		return pythonCmd(limits, args[1:], stdout, stderr)
	case "run":
		if len(args) < 2 {
			return usageErr(stderr, "run requires a script")
		}
		src, err := os.ReadFile(args[1])
		if err != nil {
			fmt.Fprintf(stderr, "shellsim: %v\n", err)
			return 2
		}
		return runOnce(limits, string(src), stdinBytes(stdin), args[1], args[2:], stdout, stderr)
	case "shell":
		rest, code, ok := limitFlags(args[1:], &limits, stderr)
		if !ok {
			return code
		}
		var params []string
		if len(rest) > 0 && rest[0] == "--" {
			params, rest = rest[1:], nil
		}
		if len(rest) > 0 {
			return usageErr(stderr, "unexpected argument %q", rest[0])
		}
		return console(limits, params, stdin, stdout, stderr)
	case "eval":
		rest, code, ok := limitFlags(args[1:], &limits, stderr)
		if !ok {
			return code
		}
		src, haveSrc := "", false
		var params []string
		for len(rest) > 0 {
			switch {
			case rest[0] == "-c" && len(rest) > 1:
				src, haveSrc, rest = rest[1], true, rest[2:]
			case rest[0] == "--":
				params, rest = rest[1:], nil
			default:
				if r2, code, ok := limitFlags(rest, &limits, stderr); !ok {
					return code
				} else if len(r2) == len(rest) {
					return usageErr(stderr, "unexpected argument %q", rest[0])
				} else {
					rest = r2
				}
			}
		}
		var in []byte
		if !haveSrc {
			b, _ := io.ReadAll(stdin)
			src = string(b)
		} else {
			in = stdinBytes(stdin)
		}
		env := shellsim.NewEnvironment(limits)
		res := env.RunArgs(context.Background(), src, in, "bash", params)
		env.Close()
		b, _ := json.MarshalIndent(Report(res), "", "  ")
		stdout.Write(append(b, '\n'))
		return res.Outcome.ExitStatus
	case "serve":
		return serveMain(args[1:], limits, stdin, stdout, stderr)
	case "replay":
		return replayMain(args[1:], limits, stdout, stderr)
	}
	if strings.HasPrefix(args[0], "-") {
		return usageErr(stderr, "unknown option %q", args[0])
	}
	return usageErr(stderr, "unknown command %q", args[0])
}

func runOnce(limits shellsim.Limits, src string, in []byte, arg0 string, params []string, stdout, stderr io.Writer) int {
	env := shellsim.NewEnvironment(limits)
	res := env.RunArgs(context.Background(), src, in, arg0, params)
	env.Close()
	stdout.Write(res.Stdout)
	stderr.Write(res.Stderr)
	return res.Outcome.ExitStatus
}

// EvalReport is the JSON shape printed by eval.
type EvalReport struct {
	Outcome             shellsim.Outcome      `json:"outcome"`
	Stdout              string                `json:"stdout"`
	Stderr              string                `json:"stderr"`
	Commands            []string              `json:"commands"`
	Invocations         []shellsim.Invocation `json:"invocations"`
	Unsupported         []string              `json:"unsupported"`
	UnsupportedCommands []string              `json:"unsupported_commands"`
	PartialCommands     []string              `json:"partial_commands"`
}

// Report converts a result to the eval JSON shape (strings decoded lossily).
func Report(r shellsim.Result) EvalReport {
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	inv := r.Invocations
	if inv == nil {
		inv = []shellsim.Invocation{}
	}
	o := r.Outcome
	if o.CommandUsage == nil {
		o.CommandUsage = []shell.CommandUsage{}
	}
	return EvalReport{Outcome: o, Stdout: strings.ToValidUTF8(string(r.Stdout), "\uFFFD"),
		Stderr: strings.ToValidUTF8(string(r.Stderr), "\uFFFD"), Commands: nz(r.Commands), Invocations: inv,
		Unsupported: nz(r.Unsupported), UnsupportedCommands: nz(r.UnsupportedCommands), PartialCommands: nz(r.PartialCommands)}
}

// console runs one action per line (more lines while a heredoc or compound
// command is incomplete) in a persistent environment.
func console(limits shellsim.Limits, params []string, stdin *os.File, stdout, stderr io.Writer) int {
	env := shellsim.NewEnvironment(limits)
	defer env.Close()
	tty := isTerminal(stdin)
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	status := 0
	first := true
	for {
		if tty {
			fmt.Fprintf(stdout, "shellsim:%s$ ", env.Dir())
		}
		var src strings.Builder
		got := false
		for sc.Scan() {
			got = true
			src.WriteString(sc.Text())
			src.WriteByte('\n')
			if shell.Complete(src.String()) {
				break
			}
			if tty {
				io.WriteString(stdout, "> ")
			}
		}
		if !got {
			return status
		}
		var res shellsim.Result
		if first && params != nil {
			res = env.RunArgs(context.Background(), src.String(), nil, "bash", params)
		} else {
			res = env.Run(context.Background(), src.String(), nil)
		}
		first = false
		stdout.Write(res.Stdout)
		stderr.Write(res.Stderr)
		status = res.Outcome.ExitStatus
		if env.Terminated() {
			if r := res.Outcome.StopReason; r != nil {
				fmt.Fprintf(stderr, "shellsim: %s\n", displayReason(*r))
			}
			return status
		}
	}
}

func displayReason(r string) string {
	switch r {
	case "cpu_exhausted":
		return "CPU exhausted"
	case "memory_exhausted":
		return "memory exhausted"
	case "output_limit_exceeded":
		return "output limit exceeded"
	}
	return r
}

// isTerminal reports whether f is a character device (a TTY).
func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
