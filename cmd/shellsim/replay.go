package main

import (
	"fmt"
	"io"
	"os"

	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/harness"
)

// replayMain: shellsim replay SCENARIO.ndjson [LIMITS] [--root DIR]
// [--transcript PATH].
func replayMain(args []string, limits shellsim.Limits, stdout, stderr io.Writer) int {
	root, transcript, scenario, code, ok := harnessFlags(args, &limits, true, stderr)
	if !ok {
		return code
	}
	if scenario == "" {
		return usageErr(stderr, "replay requires a scenario file")
	}
	f, err := os.Open(scenario)
	if err != nil {
		fmt.Fprintf(stderr, "shellsim replay: %v\n", err)
		return 2
	}
	defer f.Close()
	return harness.Replay(f, harness.ReplayOptions{Server: harness.Options{Limits: limits, Root: root}, Transcript: transcript}, stdout, stderr)
}
