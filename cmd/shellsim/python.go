package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim"
)

const pythonUsage = `usage: shellsim [LIMITS] python PROJECT [--pytest] [--entry FILE] [-- ARGS...]

PROJECT is a host directory (or a .py file, whose directory is used), copied
into /work as a trusted import (regular files and directories only, bounded
by the disk limit). A file PROJECT, or --entry FILE, runs python3 FILE ARGS;
a directory, or --pytest, runs python3 -m pytest on its test files.
`

// pythonCmd implements "shellsim python": import a host project and run it
// with the simulated interpreter.
func pythonCmd(limits shellsim.Limits, args []string, stdout, stderr io.Writer) int {
	var project, entry string
	pytest := false
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			rest = args[i+1:]
			i = len(args)
		case a == "--pytest":
			pytest = true
		case a == "--entry":
			if i+1 >= len(args) {
				fmt.Fprint(stderr, "shellsim: --entry requires a file\n"+pythonUsage)
				return 2
			}
			entry = args[i+1]
			i++
		case a == "-h" || a == "--help":
			io.WriteString(stdout, pythonUsage)
			return 0
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stderr, "shellsim: python: unknown option %q\n%s", a, pythonUsage)
			return 2
		case project == "":
			project = a
		default:
			rest = append(rest, a)
		}
	}
	if project == "" {
		fmt.Fprint(stderr, "shellsim: python requires a PROJECT\n"+pythonUsage)
		return 2
	}
	fi, err := os.Stat(project)
	if err != nil {
		fmt.Fprintf(stderr, "shellsim: %v\n", err)
		return 2
	}
	root := project
	if !fi.IsDir() {
		if entry != "" {
			fmt.Fprint(stderr, "shellsim: --entry is valid only with a directory PROJECT\n")
			return 2
		}
		root, entry = filepath.Dir(project), filepath.Base(project)
	}
	env := shellsim.NewEnvironment(limits)
	defer env.Close()
	if _, err := env.Mount(root, "/work"); err != nil {
		fmt.Fprintf(stderr, "shellsim: import %s: %v\n", root, err)
		return 2
	}
	var cmd string
	if entry != "" && !pytest {
		cmd = "python3 " + shellQuote(entry)
		for _, a := range rest {
			cmd += " " + shellQuote(a)
		}
	} else {
		cmd = "python3 -m pytest"
		for _, a := range rest {
			cmd += " " + shellQuote(a)
		}
	}
	r := env.Run(context.Background(), cmd, nil)
	stdout.Write(r.Stdout)
	stderr.Write(r.Stderr)
	return r.Outcome.ExitStatus
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
