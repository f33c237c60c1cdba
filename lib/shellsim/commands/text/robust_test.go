package text

import (
	"math/rand"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// TestRandomArgsNeverPanic runs every command with random options,
// operands and input: whatever the arguments, a command must return.
func TestRandomArgsNeverPanic(t *testing.T) { randomArgs(t, 1, 3000) }

func randomArgs(t *testing.T, seed int64, n int) {
	names := []string{"cat", "tac", "head", "tail", "tee", "seq", "wc", "sort", "uniq", "cut", "tr",
		"paste", "join", "comm", "nl", "rev", "fold", "expand", "column", "fmt", "split", "grep", "egrep", "fgrep"}
	tokens := []string{"-", "--", "-n", "-c", "-k", "-t", "-f", "-d", "-s", "-w", "-b", "-e", "-o", "-v", "-i",
		"-1", "-2", "-3", "-a", "-r", "-u", "-z", "-x", "-l", "-L", "-C", "-A", "-B", "-m", "-h", "-H",
		"1", "0", "2,1", "1-", "-3", "+2", "1.2", "2b,3n", "a-z", "[:alpha:]", "[x*]", "\\", ":", "", " ",
		"f", "nosuch", "d", "l/2", "r/3", "2/3", "x*", "\\(a", "[", "a\\{1,\\}", "(a|b)+", "%g", "1e3",
		"--complement", "--output-delimiter=|", "-o", "auto", "0,1.1,2.2", "--header", "--total", "-g", "-M",
		"-V", "-h", "-R", "-nr", "-k2,2n", "-t,", "-s,", "-w3", "-5", "-ba", "-nrz", "-p", "-F", "-E", "-P"}
	inputs := []string{"", "a\nb\n", "b a\na b\n\n", "x:y:z\n1:2\n", "no newline", "\x00bin\x00\n", "é ü\n", "a\ta\tb\n"}
	r := rand.New(rand.NewSource(seed))
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		name := names[r.Intn(len(names))]
		args := []string{name}
		for k := r.Intn(5); k > 0; k-- {
			args = append(args, tokens[r.Intn(len(tokens))])
		}
		e := setup(t, map[string]string{"f": inputs[r.Intn(len(inputs))], "d/": ""})
		e.Sys.Fuel = 1 << 18
		func() {
			defer func() {
				if v := recover(); v != nil {
					t.Fatalf("%q panicked: %v", args, v)
				}
			}()
			e.Run(args, inputs[r.Intn(len(inputs))])
		}()
		if e.Sys.Mem != 0 {
			t.Fatalf("%q left %d bytes reserved", args, e.Sys.Mem)
		}
	}
}

func TestRandomArgsLong(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for seed := int64(2); seed < 12; seed++ {
		randomArgs(t, seed, 5000)
	}
}

func TestHugeCounts(t *testing.T) {
	big := "9223372036854775807"
	runTable(t, []commandtest.Golden{
		{Args: []string{"tail", "-c", big}, Stdin: "abc", Stdout: "abc"},
		{Args: []string{"tail", "-n", big}, Stdin: "a\nb\n", Stdout: "a\nb\n"},
		{Args: []string{"head", "-c", big}, Stdin: "abc", Stdout: "abc"},
		{Args: []string{"head", "-c", "-" + big}, Stdin: "abc"},
		{Args: []string{"head", "-n", "-" + big}, Stdin: "a\nb\n"},
		{Args: []string{"tail", "-c", "+" + big}, Stdin: "abc"},
		{Args: []string{"split", "-b", big}, Stdin: "abc", Check: wantFiles(nil, map[string]string{"xaa": "abc"})},
		{Args: []string{"fold", "-w", big}, Stdin: "abc\n", Stdout: "abc\n"},
		{Args: []string{"uniq", "-f", big, "-s", big, "-w", big}, Stdin: "a\nb\n", Stdout: "a\n"},
		{Args: []string{"cut", "-c", big + "-"}, Stdin: "abc\n", Stdout: "\n"},
	})
}

func TestHugeKeys(t *testing.T) {
	big := "9223372036854775807"
	runTable(t, []commandtest.Golden{
		{Args: []string{"sort", "-k1." + big + "," + big + "." + big}, Stdin: "b\na\n", Stdout: "a\nb\n"},
		{Args: []string{"sort", "-k" + big}, Stdin: "b\na\n", Stdout: "a\nb\n"},
		{Args: []string{"nl", "-v", big}, Stdin: "a\n", Stdout: big + "\ta\n"},
		{Args: []string{"seq", big, big}, Stdout: big + "\n"},
	})
}
