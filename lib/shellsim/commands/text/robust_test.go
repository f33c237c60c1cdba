package text

import (
	"math/rand"
	"testing"
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
	runTable(t, []tc{
		{args: []string{"tail", "-c", big}, stdin: "abc", out: "abc"},
		{args: []string{"tail", "-n", big}, stdin: "a\nb\n", out: "a\nb\n"},
		{args: []string{"head", "-c", big}, stdin: "abc", out: "abc"},
		{args: []string{"head", "-c", "-" + big}, stdin: "abc"},
		{args: []string{"head", "-n", "-" + big}, stdin: "a\nb\n"},
		{args: []string{"tail", "-c", "+" + big}, stdin: "abc"},
		{args: []string{"split", "-b", big}, stdin: "abc", check: wantFiles(nil, map[string]string{"xaa": "abc"})},
		{args: []string{"fold", "-w", big}, stdin: "abc\n", out: "abc\n"},
		{args: []string{"uniq", "-f", big, "-s", big, "-w", big}, stdin: "a\nb\n", out: "a\n"},
		{args: []string{"cut", "-c", big + "-"}, stdin: "abc\n", out: "\n"},
	})
}

func TestHugeKeys(t *testing.T) {
	big := "9223372036854775807"
	runTable(t, []tc{
		{args: []string{"sort", "-k1." + big + "," + big + "." + big}, stdin: "b\na\n", out: "a\nb\n"},
		{args: []string{"sort", "-k" + big}, stdin: "b\na\n", out: "a\nb\n"},
		{args: []string{"nl", "-v", big}, stdin: "a\n", out: big + "\ta\n"},
		{args: []string{"seq", big, big}, out: big + "\n"},
	})
}
