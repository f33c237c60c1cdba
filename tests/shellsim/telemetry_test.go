package shellsim_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// TestPythonGitMakeTelemetry: python3, git and make appear in an action's
// result like any command (issue 15 §6): each run in the invocation log
// with its trust level, CPU and disk change, their cost per command name,
// their memory in the environment's usage, their unsupported and partial
// use recorded.
func TestPythonGitMakeTelemetry(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	const src = `python3 -c 'print(sum(range(1000)))'
python3 -c 'import numpy'
python3 -c 'import zlib; zlib.compress(b"x")'
git init -q r && cd r && echo a > f && git add f
git -c user.name=a -c user.email=b@c commit -q -m m
git bisect start
cd ..
printf 'all: out\nout:\n\techo hi > out\n' > Makefile
make -s
`
	r := env.Run(ctx, src, nil)
	if got := string(r.Stdout); got != "499500\n" {
		t.Errorf("stdout %q (stderr %q)", got, r.Stderr)
	}
	byProg := map[string][]shellsim.Invocation{}
	for _, inv := range r.Invocations {
		byProg[inv.Argv[0]] = append(byProg[inv.Argv[0]], inv)
	}
	for prog, n := range map[string]int{"python3": 3, "git": 4, "make": 1} {
		invs := byProg[prog]
		if len(invs) != n {
			t.Errorf("%s: %d invocations, want %d: %+v", prog, len(invs), n, invs)
			continue
		}
		for _, inv := range invs {
			if inv.Trust != "partial" || inv.Status == nil {
				t.Errorf("%s invocation %+v: want trust partial and a status", prog, inv)
			}
		}
	}
	if invs := byProg["python3"]; len(invs) == 3 {
		if invs[0].CPU <= 0 || *invs[0].Status != 0 {
			t.Errorf("python3 run: %+v", invs[0])
		}
		if invs[1].UnsupportedReason != "python3 import numpy" || *invs[1].Status != 1 {
			t.Errorf("python3 import numpy: %+v", invs[1])
		}
	}
	if invs := byProg["git"]; len(invs) == 4 {
		if invs[0].DiskDelta <= 0 || invs[2].DiskDelta <= 0 {
			t.Errorf("git init and commit write the repository: %+v", invs)
		}
		if invs[3].UnsupportedReason != "git bisect" {
			t.Errorf("git bisect: %+v", invs[3])
		}
	}
	if invs := byProg["make"]; len(invs) == 1 && (invs[0].CPU <= 0 || *invs[0].Status != 0) {
		t.Errorf("make: %+v", invs[0])
	}
	usage := map[string]int64{}
	for _, u := range r.Outcome.CommandUsage {
		usage[u.Command] = u.CPU
	}
	for _, prog := range []string{"python3", "git", "make"} {
		if usage[prog] <= 0 {
			t.Errorf("command usage of %s: %v", prog, r.Outcome.CommandUsage)
		}
		if !slices.Contains(r.PartialCommands, prog) || !slices.Contains(r.Commands, prog) {
			t.Errorf("%s not in commands %v / partial commands %v", prog, r.Commands, r.PartialCommands)
		}
	}
	for _, want := range []string{"python3 import numpy", "git bisect"} {
		if !slices.Contains(r.Unsupported, want) {
			t.Errorf("%q not in unsupported %v", want, r.Unsupported)
		}
	}
	if !slices.ContainsFunc(r.Partials, func(p string) bool { return strings.HasPrefix(p, "python3 zlib.compress") }) {
		t.Errorf("zlib.compress not in partial use %v", r.Partials)
	}

	// Python's objects are charged to the environment's memory.
	before := r.Outcome.Usage.MemoryPeak
	r = env.Run(ctx, `python3 -c 'x = "a" * (8 << 20); print(len(x))'`, nil)
	if r.Outcome.ExitStatus != 0 || r.Outcome.Usage.MemoryPeak < before+8<<20 {
		t.Errorf("status %d, memory peak %d after %d (stderr %q)", r.Outcome.ExitStatus, r.Outcome.Usage.MemoryPeak, before, r.Stderr)
	}
}
