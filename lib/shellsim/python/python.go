package python

import (
	"fmt"
	"io"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/python/interp"
)

// python3 - the simulated Python interpreter
//
//	python3 [-BEIOqsSu] [-W arg] [-X opt] [-c cmd | -m mod | file | -] [arg]...
//	pytest [pytest options] [file_or_dir]...
//
// Options that only tune CPython (-B, -u, -E, -I, -s, -S, -O, -q, -W, -X)
// are accepted and have no effect; anything else fails with exit 2 as
// CPython does.

// Commands returns python, python3, python3.13, python3.14, pytest, pip,
// pip3, uv and uvx, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "python", Trust: command.Partial, Run: Main},
		{Name: "python3", Trust: command.Partial, Run: Main},
		{Name: "python3.13", Trust: command.Partial, Run: Main},
		{Name: "python3.14", Trust: command.Partial, Run: Main},
		{Name: "pytest", Trust: command.Partial, Run: Pytest},
		{Name: "pip", Trust: command.Partial, Run: Pip},
		{Name: "pip3", Trust: command.Partial, Run: Pip},
		{Name: "uv", Trust: command.Partial, Run: UV},
		{Name: "uvx", Trust: command.Partial, Run: UVX},
	}
}

// Version is what python3 --version prints.
const Version = "Python 3.13.0"

// Main runs python3.
func Main(inv *command.Invocation) int {
	args := inv.Args[1:]
	name := inv.Args[0]
	for len(args) > 0 {
		a := args[0]
		if a == "-" || !strings.HasPrefix(a, "-") {
			break
		}
		if a == "--" {
			args = args[1:]
			break
		}
		switch {
		case a == "-V" || a == "--version":
			fmt.Fprintln(inv.Stdout, Version)
			return 0
		case a == "-h" || a == "--help":
			fmt.Fprintf(inv.Stdout, "usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\n", name)
			return 0
		case a == "-c":
			if len(args) < 2 {
				fmt.Fprintf(inv.Stderr, "Argument expected for the -c option\nusage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\nTry `python -h' for more information.\n", name)
				return 2
			}
			return run(inv, args[1], "<string>", append([]string{"-c"}, args[2:]...), inv.Dir)
		case strings.HasPrefix(a, "-c"):
			return run(inv, a[2:], "<string>", append([]string{"-c"}, args[1:]...), inv.Dir)
		case a == "-m" || strings.HasPrefix(a, "-m"):
			mod := strings.TrimPrefix(a, "-m")
			rest := args[1:]
			if mod == "" {
				if len(args) < 2 {
					fmt.Fprintf(inv.Stderr, "Argument expected for the -m option\n")
					return 2
				}
				mod, rest = args[1], args[2:]
			}
			return runModule(inv, mod, rest)
		case a == "-W" || a == "-X":
			if len(args) < 2 {
				fmt.Fprintf(inv.Stderr, "Argument expected for the %s option\n", a)
				return 2
			}
			args = args[1:]
		case strings.HasPrefix(a, "-W") || strings.HasPrefix(a, "-X"):
		default:
			ok := true
			for _, c := range a[1:] {
				if !strings.ContainsRune("BEIOqsSuvd", c) {
					ok = false
				}
			}
			if !ok {
				fmt.Fprintf(inv.Stderr, "Unknown option: %s\nusage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\nTry `python -h' for more information.\n", a, name)
				return 2
			}
		}
		args = args[1:]
	}
	if len(args) == 0 || args[0] == "-" {
		src, err := io.ReadAll(io.LimitReader(inv.Stdin, 8<<20))
		if err != nil {
			return 1
		}
		argv := []string{""}
		if len(args) > 0 {
			argv = append([]string{"-"}, args[1:]...)
		}
		return run(inv, string(src), "<stdin>", argv, inv.Dir)
	}
	file := args[0]
	path := inv.Abs(file)
	fi, err := inv.FS.Stat(path)
	if err == nil && fi.IsDir() {
		main := command.Join(path, "__main__.py")
		if _, err := inv.FS.Stat(main); err != nil {
			fmt.Fprintf(inv.Stderr, "%s: can't find '__main__' module in '%s'\n", name, file)
			return 1
		}
		path = main
	}
	src, err := inv.FS.ReadFile(path)
	if err != nil {
		fmt.Fprintf(inv.Stderr, "%s: can't open file '%s': [Errno 2] %s\n", name, path, command.Message(err))
		return 2
	}
	dir := path[:strings.LastIndexByte(path, '/')]
	if dir == "" {
		dir = "/"
	}
	return run(inv, string(src), file, args, dir)
}

func run(inv *command.Invocation, src, file string, argv []string, dir string) int {
	in := interp.New(interp.Config{Inv: inv, Argv: argv, Path: []string{dir}})
	return in.RunMain(src, file)
}

// runModule implements python3 -m.
func runModule(inv *command.Invocation, mod string, rest []string) int {
	switch mod {
	case "pytest", "py.test":
		return pytest(inv, rest)
	case "pip":
		return pip(inv, rest, "python3 -m pip")
	case "venv":
		var dir string
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") {
				dir = a
			}
		}
		if dir == "" {
			fmt.Fprintln(inv.Stderr, "usage: venv [-h] ENV_DIR [ENV_DIR ...]\nvenv: error: the following arguments are required: ENV_DIR")
			return 2
		}
		if err := makeVenv(inv, dir); err != nil {
			fmt.Fprintf(inv.Stderr, "Error: %s\n", command.Message(err))
			return 1
		}
		return 0
	}
	in := interp.New(interp.Config{Inv: inv, Argv: append([]string{mod}, rest...), Path: []string{inv.Dir}})
	return in.RunModule(mod)
}

// Pytest runs the pytest command.
func Pytest(inv *command.Invocation) int { return pytest(inv, inv.Args[1:]) }

func pytest(inv *command.Invocation, args []string) int {
	in := interp.New(interp.Config{Inv: inv, Argv: append([]string{"pytest"}, args...), Path: []string{inv.Dir}})
	return in.RunPytest(args)
}
