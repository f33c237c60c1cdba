package main

import (
	"fmt"
	"io"

	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/harness"
)

// harnessFlags reads limit flags and --root (and, for replay, --transcript
// and the scenario path) after a subcommand.
func harnessFlags(args []string, limits *shellsim.Limits, replay bool, stderr io.Writer) (root, transcript, scenario string, code int, ok bool) {
	for len(args) > 0 {
		rest, code, ok := limitFlags(args, limits, stderr)
		if !ok {
			return "", "", "", code, false
		}
		if len(rest) != len(args) {
			args = rest
			continue
		}
		switch a := args[0]; {
		case a == "--root" || a == "--transcript":
			if len(args) < 2 {
				return "", "", "", usageErr(stderr, "%s requires a path", a), false
			}
			if a == "--root" {
				if root != "" {
					return "", "", "", usageErr(stderr, "--root given twice"), false
				}
				root = args[1]
			} else {
				if !replay {
					return "", "", "", usageErr(stderr, "--transcript is only for replay"), false
				}
				if transcript != "" {
					return "", "", "", usageErr(stderr, "--transcript given twice"), false
				}
				transcript = args[1]
			}
			args = args[2:]
		case replay && scenario == "" && (len(a) == 0 || a[0] != '-'):
			scenario, args = a, args[1:]
		default:
			return "", "", "", usageErr(stderr, "unexpected argument %q", a), false
		}
	}
	return root, transcript, scenario, 0, true
}

// serveMain: shellsim serve [LIMITS] [--root DIR]: the NDJSON harness on
// stdin/stdout.
func serveMain(args []string, limits shellsim.Limits, stdin io.Reader, stdout, stderr io.Writer) int {
	root, _, _, code, ok := harnessFlags(args, &limits, false, stderr)
	if !ok {
		return code
	}
	srv, err := harness.New(harness.Options{Limits: limits, Root: root})
	if err != nil {
		fmt.Fprintf(stderr, "shellsim serve: %v\n", err)
		return 2
	}
	defer srv.Close()
	if err := srv.Serve(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "shellsim serve: %v\n", err)
		return 1
	}
	return 0
}
