package python

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// pip, pip3, uv and uvx - Python package tooling for the simulated
// interpreter. There is no package index: installing a package ShellSim
// provides (pytest and the standard library modules people pip-install by
// mistake) succeeds as "already satisfied"; anything else fails and is
// recorded as unsupported. uv venv and python3 -m venv create a virtual
// environment whose bin/ scripts run the simulated interpreter.

// provided are the distributions the simulated interpreter ships.
var provided = map[string]string{"pytest": "8.3.4", "pip": "24.0", "setuptools": "70.0.0", "wheel": "0.43.0",
	"iniconfig": "2.0.0", "pluggy": "1.5.0", "packaging": "24.1", "pytest-json-ctrf": "0.3.5", "typing-extensions": "4.12.2"}

func reqName(r string) string {
	r = strings.TrimSpace(r)
	if i := strings.IndexAny(r, "<>=!~[;@ "); i >= 0 {
		r = r[:i]
	}
	return strings.ReplaceAll(strings.ToLower(r), "_", "-")
}

func pipInstall(inv *command.Invocation, args []string, prog string) int {
	var reqs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-r" || a == "--requirement":
			if i+1 >= len(args) {
				fmt.Fprintf(inv.Stderr, "ERROR: -r option requires 1 argument\n")
				return 2
			}
			data, err := inv.FS.ReadFile(inv.Abs(args[i+1]))
			if err != nil {
				fmt.Fprintf(inv.Stderr, "ERROR: Could not open requirements file: [Errno 2] No such file or directory: '%s'\n", args[i+1])
				return 1
			}
			for _, l := range strings.Split(string(data), "\n") {
				l = strings.TrimSpace(strings.SplitN(l, "#", 2)[0])
				if l != "" && !strings.HasPrefix(l, "-") {
					reqs = append(reqs, l)
				}
			}
			i++
		case a == "-e" || a == "--editable" || a == "-c" || a == "--constraint" || a == "-i" || a == "--index-url" || a == "--extra-index-url" || a == "-t" || a == "--target" || a == "--python" || a == "-p":
			i++
		case strings.HasPrefix(a, "-"):
		case a == ".":
			inv.Sys.Partial(prog + " install .")
		default:
			reqs = append(reqs, a)
		}
	}
	if len(reqs) == 0 {
		fmt.Fprintln(inv.Stderr, "ERROR: You must give at least one requirement to install (see \"pip help install\")")
		return 1
	}
	var missing []string
	for _, r := range reqs {
		n := reqName(r)
		if v, ok := provided[n]; ok {
			fmt.Fprintf(inv.Stdout, "Requirement already satisfied: %s in /usr/lib/python3.14/site-packages (%s)\n", n, v)
			continue
		}
		missing = append(missing, n)
	}
	if len(missing) > 0 {
		for _, n := range missing {
			inv.Sys.Unsupported(prog + " install " + n)
		}
		fmt.Fprintf(inv.Stderr, "ERROR: Could not find a version that satisfies the requirement %s (ShellSim has no package index; it provides %s)\nERROR: No matching distribution found for %s\n", missing[0], strings.Join(sortedKeys(provided), ", "), missing[0])
		return 1
	}
	return 0
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Pip implements pip and pip3.
func Pip(inv *command.Invocation) int { return pip(inv, inv.Args[1:], inv.Args[0]) }

func pip(inv *command.Invocation, args []string, prog string) int {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "--version", "-V":
			fmt.Fprintln(inv.Stdout, "pip 24.0 from /usr/lib/python3.14/site-packages/pip (python 3.13)")
			return 0
		}
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(inv.Stdout, "Usage:\n  pip <command> [options]")
		return 0
	}
	switch args[0] {
	case "install":
		return pipInstall(inv, args[1:], prog)
	case "list":
		fmt.Fprintf(inv.Stdout, "%-17s %s\n%s %s\n", "Package", "Version", strings.Repeat("-", 17), strings.Repeat("-", 7))
		for _, n := range sortedKeys(provided) {
			fmt.Fprintf(inv.Stdout, "%-17s %s\n", n, provided[n])
		}
		return 0
	case "freeze":
		for _, n := range sortedKeys(provided) {
			if n != "pip" && n != "setuptools" && n != "wheel" {
				fmt.Fprintf(inv.Stdout, "%s==%s\n", n, provided[n])
			}
		}
		return 0
	case "show":
		status := 0
		for _, n := range args[1:] {
			v, ok := provided[reqName(n)]
			if !ok {
				fmt.Fprintf(inv.Stderr, "WARNING: Package(s) not found: %s\n", n)
				status = 1
				continue
			}
			fmt.Fprintf(inv.Stdout, "Name: %s\nVersion: %s\nLocation: /usr/lib/python3.14/site-packages\n", reqName(n), v)
		}
		return status
	case "uninstall":
		inv.Sys.Partial(prog + " uninstall")
		return 0
	}
	inv.Sys.Unsupported(prog + " " + args[0])
	fmt.Fprintf(inv.Stderr, "ERROR: unknown command \"%s\"\n", args[0])
	return 1
}

// makeVenv creates a virtual environment directory whose scripts run the
// simulated interpreter.
func makeVenv(inv *command.Invocation, dir string) error {
	root := inv.Abs(dir)
	bin := command.Join(root, "bin")
	if err := inv.FS.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	inv.FS.MkdirAll(command.Join(root, "lib/python3.13/site-packages"), 0o755)
	files := map[string]string{
		"pyvenv.cfg":   "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.13.0\n",
		"bin/activate": fmt.Sprintf("# ShellSim virtual environment\nexport VIRTUAL_ENV=%s\nexport PATH=\"$VIRTUAL_ENV/bin:$PATH\"\ndeactivate() { export PATH=\"${PATH#$VIRTUAL_ENV/bin:}\"; unset VIRTUAL_ENV; }\n", root),
	}
	for p, c := range files {
		if err := inv.FS.WriteFile(command.Join(root, p), []byte(c), 0o644); err != nil {
			return err
		}
	}
	for name, target := range map[string]string{"python": "python3", "python3": "python3", "python3.13": "python3", "pytest": "pytest", "pip": "pip", "pip3": "pip"} {
		script := fmt.Sprintf("#!/bin/sh\nexec /usr/bin/%s \"$@\"\n", target)
		if err := inv.FS.WriteFile(command.Join(bin, name), []byte(script), 0o755); err != nil {
			return err
		}
		inv.FS.Chmod(command.Join(bin, name), 0o755)
	}
	return nil
}

// UV implements the uv subcommands verifiers use: venv, pip install,
// run, sync/add (accepted when nothing beyond ShellSim's packages is
// needed), and --version.
func UV(inv *command.Invocation) int {
	args := inv.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "--version", "-V":
			fmt.Fprintln(inv.Stdout, "uv 0.7.13")
			return 0
		case "--directory", "--project", "--python", "-p":
			if len(args) > 1 {
				args = args[1:]
			}
		}
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(inv.Stdout, "Usage: uv [OPTIONS] <COMMAND>")
		return 2
	}
	switch args[0] {
	case "venv":
		dir := ".venv"
		for i := 1; i < len(args); i++ {
			if args[i] == "--python" || args[i] == "-p" || args[i] == "--prompt" {
				i++
				continue
			}
			if !strings.HasPrefix(args[i], "-") {
				dir = args[i]
			}
		}
		if err := makeVenv(inv, dir); err != nil {
			fmt.Fprintf(inv.Stderr, "error: %s\n", command.Message(err))
			return 2
		}
		fmt.Fprintf(inv.Stderr, "Using CPython 3.13.0\nCreating virtual environment at: %s\nActivate with: source %s/bin/activate\n", dir, dir)
		return 0
	case "pip":
		if len(args) > 1 && args[1] == "install" {
			return pipInstall(inv, args[2:], "uv pip")
		}
		return pip(inv, args[1:], "uv pip")
	case "run":
		rest := args[1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			switch rest[0] {
			case "--with", "--python", "-p", "--directory", "--project", "--env-file", "--extra", "--group":
				if rest[0] == "--with" && len(rest) > 1 {
					if st := pipInstall(inv, []string{rest[1]}, "uv run --with"); st != 0 {
						return st
					}
				}
				if len(rest) > 1 {
					rest = rest[1:]
				}
			case "--":
				rest = rest[1:]
				goto run
			}
			rest = rest[1:]
		}
	run:
		if len(rest) == 0 {
			fmt.Fprintln(inv.Stderr, "error: uv run requires a command")
			return 2
		}
		st, _ := inv.Sys.Exec(command.ExecRequest{Args: rest, Stdin: inv.Stdin, Stdout: inv.Stdout, Stderr: inv.Stderr})
		return st
	case "sync", "add", "lock":
		inv.Sys.Partial("uv " + args[0])
		if args[0] == "add" {
			return pipInstall(inv, args[1:], "uv add")
		}
		return 0
	case "init":
		inv.Sys.Partial("uv init")
		return 0
	}
	inv.Sys.Unsupported("uv " + args[0])
	fmt.Fprintf(inv.Stderr, "error: unrecognized subcommand '%s'\n", args[0])
	return 2
}

// UVX runs a tool: uvx pytest ... runs the simulated pytest.
func UVX(inv *command.Invocation) int {
	args := inv.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if (args[0] == "--from" || args[0] == "--with" || args[0] == "--python") && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(inv.Stderr, "error: uvx requires a tool")
		return 2
	}
	tool := reqName(args[0])
	if _, ok := provided[tool]; !ok {
		inv.Sys.Unsupported("uvx " + tool)
		fmt.Fprintf(inv.Stderr, "error: ShellSim cannot install the tool '%s'\n", tool)
		return 1
	}
	st, _ := inv.Sys.Exec(command.ExecRequest{Args: append([]string{tool}, args[1:]...), Stdin: inv.Stdin, Stdout: inv.Stdout, Stderr: inv.Stderr})
	return st
}
