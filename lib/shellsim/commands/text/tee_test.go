package text

import (
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestTee(t *testing.T) {
	runTable(t, []commandtest.Golden{
		{Args: sh("tee t1 t2"), Stdin: "hi\n", Stdout: "hi\n", Files: map[string]string{"t1": "old\n"},
			Check: func(t *testing.T, e *commandtest.Env) {
				if e.ReadFile("t1") != "hi\n" || e.ReadFile("t2") != "hi\n" {
					t.Errorf("files: %q %q", e.ReadFile("t1"), e.ReadFile("t2"))
				}
			}},
		{Args: sh("tee -a t1"), Stdin: "x\n", Stdout: "x\n", Files: map[string]string{"t1": "old\n"},
			Check: func(t *testing.T, e *commandtest.Env) {
				if got := e.ReadFile("t1"); got != "old\nx\n" {
					t.Errorf("t1 = %q", got)
				}
			}},
		{Args: sh("tee nosuchdir/x t1"), Stdin: "hi\n", Stdout: "hi\n", Status: 1,
			Stderr: "tee: nosuchdir/x: No such file or directory\n",
			Check: func(t *testing.T, e *commandtest.Env) {
				if got := e.ReadFile("t1"); got != "hi\n" {
					t.Errorf("t1 = %q", got)
				}
			}},
		{Args: sh("tee d"), Files: map[string]string{"d/": ""}, Stdin: "hi\n", Stdout: "hi\n", Status: 1,
			Stderr: "tee: d: Is a directory\n"},
		{Args: sh("tee -p -i"), Stdin: "hi\n", Stdout: "hi\n"},
		{Args: sh("tee -z"), Status: 1, Stderr: "tee: invalid option -- 'z'\nTry 'tee --help' for more information.\n"},
	})
}

// With -p tee keeps writing its files after the reader of its standard
// output has gone (GNU's warn-nopipe); by default it stops.
func TestTeeOutputError(t *testing.T) {
	for _, c := range []struct {
		args   []string
		full   bool
		err    string
		status int
	}{
		{[]string{"tee", "out"}, false, "", 1},
		{[]string{"tee", "-p", "out"}, true, "", 0},
		{[]string{"tee", "--output-error=warn", "out"}, true, "tee: 'standard output': Broken pipe\n", 1},
		{[]string{"tee", "--output-error=exit", "out"}, false, "tee: 'standard output': Broken pipe\n", 1},
	} {
		e := setup(t, nil)
		w := &limitWriter{n: 10}
		var errb strings.Builder
		input := strings.Repeat("y\n", 50000)
		st := e.RunIO(c.args, strings.NewReader(input), w, &errb)
		got := e.ReadFile("out")
		if (len(got) == len(input)) != c.full || errb.String() != c.err || st != c.status {
			t.Errorf("%q: wrote %d bytes, err %q, status %d", c.args, len(got), errb.String(), st)
		}
	}
}

func TestTeeDashIsAFile(t *testing.T) {
	runTable(t, []commandtest.Golden{{Args: sh("tee -"), Stdin: "hi\n", Stdout: "hi\n",
		Check: wantFiles(nil, map[string]string{"-": "hi\n"})}})
}
