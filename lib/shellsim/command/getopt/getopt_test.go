package getopt

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

var spec = Spec{Short: "ab:c", Long: map[string]Long{"bytes": {Key: "b", Arg: true}, "brief": {Key: "q"}, "all": {Key: "a"}}}

// gaps records Partial uses; Parse needs nothing else of the system.
type gaps struct {
	command.System
	partial []string
}

func (g *gaps) Partial(feature string) { g.partial = append(g.partial, feature) }

func parse(args ...string) ([]Opt, []string, bool, string) {
	var stderr bytes.Buffer
	inv := &command.Invocation{Args: append([]string{"cmd"}, args...), Stderr: &stderr, Sys: &gaps{}}
	opts, operands, ok := Parse(inv, spec)
	return opts, operands, ok, stderr.String()
}

func TestParse(t *testing.T) {
	opts, operands, ok, _ := parse("x", "-ac", "-b3", "--all", "y", "--byt=4", "--", "-z")
	want := []Opt{{"a", ""}, {"c", ""}, {"b", "3"}, {"a", ""}, {"b", "4"}}
	if !ok || !reflect.DeepEqual(opts, want) || !reflect.DeepEqual(operands, []string{"x", "y", "-z"}) {
		t.Fatalf("got %v %v %v", opts, operands, ok)
	}
}

func TestParseErrorsLikeGlibc(t *testing.T) {
	for args, want := range map[string]string{
		"-z":     "cmd: invalid option -- 'z'\nTry 'cmd --help' for more information.\n",
		"-b":     "cmd: option requires an argument -- 'b'\nTry 'cmd --help' for more information.\n",
		"--b":    "cmd: option '--b' is ambiguous; possibilities: '--brief' '--bytes'\nTry 'cmd --help' for more information.\n",
		"--nope": "cmd: unrecognized option '--nope'\nTry 'cmd --help' for more information.\n",
	} {
		_, _, ok, stderr := parse(args)
		if ok || stderr != want {
			t.Errorf("%s: ok=%v stderr=%q, want %q", args, ok, stderr, want)
		}
	}
}
