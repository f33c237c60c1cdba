package textmore_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/commands/textmore"
)

func TestTsortUnexpand(t *testing.T) {
	cases := []struct {
		args  []string
		stdin string
		want  string
		st    int
	}{
		{[]string{"tsort"}, "a b\nb c\na d\nd c\nx y\n", "", 0},
		{[]string{"tsort"}, "shirt tie\ntie jacket\nbelt jacket\npants shoes\npants belt\nshirt belt\nundershorts pants\nundershorts shoes\nsocks shoes\n", "", 0},
		{[]string{"tsort"}, "a\n", "", 1},
		{[]string{"unexpand"}, "        x  y\n    z\n", "", 0},
		{[]string{"unexpand", "-a"}, "a       b\n        c        d\n", "", 0},
		{[]string{"unexpand", "-t", "4"}, "        x    y\n", "", 0},
	}
	for _, c := range cases {
		e := commandtest.New(t, textmore.Commands())
		out, _, st := e.Run(c.args, c.stdin)
		// the expected output is GNU coreutils' where the host has it
		host, err := exec.LookPath(c.args[0])
		if err != nil {
			t.Skipf("no host %s", c.args[0])
		}
		cmd := exec.Command(host, c.args[1:]...)
		cmd.Stdin = strings.NewReader(c.stdin)
		want, _ := cmd.Output()
		code := 0
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
		if out != string(want) || st != code {
			t.Errorf("%v %q: got %q (%d), GNU %q (%d)", c.args, c.stdin, out, st, want, code)
		}
	}
}

func TestShuf(t *testing.T) {
	e := commandtest.New(t, textmore.Commands())
	out1, _, st := e.Run([]string{"shuf", "-i", "1-10"}, "")
	out2, _, _ := e.Run([]string{"shuf", "-i", "1-10"}, "")
	if st != 0 || out1 != out2 {
		t.Fatalf("not deterministic: %q vs %q", out1, out2)
	}
	lines := strings.Fields(out1)
	if len(lines) != 10 || strings.Join(lines, ",") == "1,2,3,4,5,6,7,8,9,10" {
		t.Fatalf("not a permutation or not shuffled: %q", out1)
	}
	seen := map[string]bool{}
	for _, l := range lines {
		seen[l] = true
	}
	if len(seen) != 10 {
		t.Fatalf("duplicates: %q", out1)
	}
	out, _, _ := e.Run([]string{"shuf", "-n", "2", "-e", "a", "b", "c"}, "")
	if len(strings.Fields(out)) != 2 {
		t.Fatalf("-n 2: %q", out)
	}
	out, _, _ = e.Run([]string{"shuf", "-r", "-n", "5", "-e", "x"}, "")
	if out != "x\nx\nx\nx\nx\n" {
		t.Fatalf("-r: %q", out)
	}
	e.WriteFile("seed", "fixed seed bytes")
	a, _, _ := e.Run([]string{"shuf", "--random-source=seed"}, "1\n2\n3\n4\n")
	b, _, _ := e.Run([]string{"shuf", "--random-source=seed"}, "1\n2\n3\n4\n")
	if a != b || len(strings.Fields(a)) != 4 {
		t.Fatalf("--random-source: %q %q", a, b)
	}
	if _, errOut, st := e.Run([]string{"shuf", "-i", "5-1"}, ""); st != 1 || !strings.Contains(errOut, "invalid input range") {
		t.Fatalf("bad range: %d %q", st, errOut)
	}
}
