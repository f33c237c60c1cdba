package getopt

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// spec exercises every kind of option: -a and --all without an argument,
// -b and --bytes with a required one, -c with an optional one, --color with
// an optional one, --context with a required one, two aliases of one long
// option and a long-only option. The usage-error messages below were
// checked against glibc 2.36's getopt_long given the same table.
var spec = Spec{
	Short: "ab:c::v",
	Long: map[string]string{
		"all": "a", "brief": "q", "bytes=": "b", "color": "color", "color=": "color",
		"context=": "context", "decode": "decode", "decompress": "decode", "tag": "tag", "verbose": "v",
	},
}

// gaps records Partial uses; Parse needs nothing else of the system.
type gaps struct {
	command.System
	partial []string
}

func (g *gaps) Partial(feature string) { g.partial = append(g.partial, feature) }

type outcome struct {
	opts     []Opt
	operands []string
	status   int
	ok       bool
	stdout   string
	stderr   string
	partial  []string
}

func parse(s Spec, argv string) outcome {
	var stdout, stderr bytes.Buffer
	g := &gaps{}
	inv := &command.Invocation{Args: append([]string{"cmd"}, strings.Fields(argv)...), Stdout: &stdout, Stderr: &stderr, Sys: g}
	opts, operands, status, ok := Parse(inv, &s)
	return outcome{opts, operands, status, ok, stdout.String(), stderr.String(), g.partial}
}

func TestParse(t *testing.T) {
	noperm := spec
	noperm.NoPerm = true
	for _, c := range []struct {
		name     string
		spec     Spec
		argv     string
		opts     []Opt
		operands []string
	}{
		{"nothing", spec, "", nil, nil},
		{"operands only", spec, "x y", nil, []string{"x", "y"}},
		{"permutation", spec, "x -a y --verbose z", []Opt{{"a", ""}, {"v", ""}}, []string{"x", "y", "z"}},
		{"bundle", spec, "-av", []Opt{{"a", ""}, {"v", ""}}, nil},
		{"bundle ends in argument", spec, "-ab5 x", []Opt{{"a", ""}, {"b", "5"}}, []string{"x"}},
		{"bundle argument in next word", spec, "-ab 5 x", []Opt{{"a", ""}, {"b", "5"}}, []string{"x"}},
		{"argument swallows the rest", spec, "-bav", []Opt{{"b", "av"}}, nil},
		{"argument may look like an option", spec, "-b -a", []Opt{{"b", "-a"}}, nil},
		{"optional short argument attached", spec, "-c5", []Opt{{"c", "5"}}, nil},
		{"optional short argument absent", spec, "-c 5", []Opt{{"c", ""}}, []string{"5"}},
		{"optional short argument after bundle", spec, "-ac5", []Opt{{"a", ""}, {"c", "5"}}, nil},
		{"double dash ends options", spec, "-a -- -v --all", []Opt{{"a", ""}}, []string{"-v", "--all"}},
		{"double dash alone", spec, "--", nil, nil},
		{"only the first double dash counts", spec, "-- --", nil, []string{"--"}},
		{"dash is an operand", spec, "- -a", []Opt{{"a", ""}}, []string{"-"}},
		{"long", spec, "--all --verbose", []Opt{{"a", ""}, {"v", ""}}, nil},
		{"long argument with =", spec, "--bytes=5", []Opt{{"b", "5"}}, nil},
		{"long argument in next word", spec, "--bytes 5 x", []Opt{{"b", "5"}}, []string{"x"}},
		{"long empty argument", spec, "--bytes=", []Opt{{"b", ""}}, nil},
		{"long argument holding =", spec, "--bytes=a=b", []Opt{{"b", "a=b"}}, nil},
		{"long argument may look like an option", spec, "--bytes --all", []Opt{{"b", "--all"}}, nil},
		{"unique prefix", spec, "--al --by=3 --v", []Opt{{"a", ""}, {"b", "3"}, {"v", ""}}, nil},
		{"prefix with argument in next word", spec, "--byt 7", []Opt{{"b", "7"}}, nil},
		{"prefix of aliases of one option", spec, "--dec", []Opt{{"decode", ""}}, nil},
		{"exact name wins over longer names", spec, "--color", []Opt{{"color", ""}}, nil},
		{"optional long argument", spec, "--color=auto", []Opt{{"color", "auto"}}, nil},
		{"optional long argument absent", spec, "--color auto", []Opt{{"color", ""}}, []string{"auto"}},
		{"long-only canonical name", spec, "--tag", []Opt{{"tag", ""}}, nil},
		{"options keep their order and repeats", spec, "-b1 -a --bytes=2 -a", []Opt{{"b", "1"}, {"a", ""}, {"b", "2"}, {"a", ""}}, nil},
		{"noperm stops at the first operand", noperm, "-a x -v --all", []Opt{{"a", ""}}, []string{"x", "-v", "--all"}},
		{"noperm stops at dash", noperm, "-a - -v", []Opt{{"a", ""}}, []string{"-", "-v"}},
		{"noperm still takes option arguments", noperm, "-b x -v y", []Opt{{"b", "x"}, {"v", ""}}, []string{"y"}},
		{"noperm double dash", noperm, "-- -a", nil, []string{"-a"}},
	} {
		got := parse(c.spec, c.argv)
		if !got.ok || got.status != 0 || got.stderr != "" || got.partial != nil ||
			!reflect.DeepEqual(got.opts, c.opts) || !reflect.DeepEqual(got.operands, c.operands) {
			t.Errorf("%s: %q: got %+v, want opts %v operands %q", c.name, c.argv, got, c.opts, c.operands)
		}
	}
}

// The messages are glibc's for the same option table listed in name order
// (glibc lists ambiguous possibilities in table order; Parse sorts them).
func TestUsageErrors(t *testing.T) {
	status2 := spec
	status2.Status = 2
	try := "Try 'cmd --help' for more information.\n"
	for _, c := range []struct {
		name    string
		spec    Spec
		argv    string
		stderr  string
		status  int
		partial []string // unknown options are recorded as gaps
	}{
		{"invalid short", spec, "-z", "cmd: invalid option -- 'z'\n", 1, []string{"cmd -z"}},
		{"invalid short in a bundle", spec, "-avz", "cmd: invalid option -- 'z'\n", 1, []string{"cmd -z"}},
		{"colon is no option", spec, "-:", "cmd: invalid option -- ':'\n", 1, []string{"cmd -:"}},
		{"invalid short after operands", spec, "x y -z", "cmd: invalid option -- 'z'\n", 1, []string{"cmd -z"}},
		{"missing short argument", spec, "-b", "cmd: option requires an argument -- 'b'\n", 1, nil},
		{"missing short argument in a bundle", spec, "x -ab", "cmd: option requires an argument -- 'b'\n", 1, nil},
		{"missing long argument", spec, "--bytes", "cmd: option '--bytes' requires an argument\n", 1, nil},
		{"missing long argument names the option in full", spec, "--by", "cmd: option '--bytes' requires an argument\n", 1, nil},
		{"long argument not allowed", spec, "--all=1", "cmd: option '--all' doesn't allow an argument\n", 1, nil},
		{"argument not allowed names the option in full", spec, "--verb=1", "cmd: option '--verbose' doesn't allow an argument\n", 1, nil},
		{"unrecognized long", spec, "--nope", "cmd: unrecognized option '--nope'\n", 1, []string{"cmd --nope"}},
		{"unrecognized long quotes its argument", spec, "--nope=1", "cmd: unrecognized option '--nope=1'\n", 1, []string{"cmd --nope"}},
		{"unrecognized longer than an option", spec, "--allx", "cmd: unrecognized option '--allx'\n", 1, []string{"cmd --allx"}},
		{"ambiguous prefix", spec, "--b", "cmd: option '--b' is ambiguous; possibilities: '--brief' '--bytes'\n", 1, nil},
		{"ambiguous prefix lists an optional-argument option once", spec, "--co", "cmd: option '--co' is ambiguous; possibilities: '--color' '--context'\n", 1, nil},
		{"error stops parsing", spec, "-z --nope", "cmd: invalid option -- 'z'\n", 1, []string{"cmd -z"}},
		{"first error wins", spec, "--b -z", "cmd: option '--b' is ambiguous; possibilities: '--brief' '--bytes'\n", 1, nil},
		{"Status", status2, "-z", "cmd: invalid option -- 'z'\n", 2, []string{"cmd -z"}},
		{"help is an ordinary unknown option without Help", spec, "--help", "cmd: unrecognized option '--help'\n", 1, []string{"cmd --help"}},
	} {
		got := parse(c.spec, c.argv)
		if got.ok || got.status != c.status || got.stderr != c.stderr+try || got.stdout != "" ||
			!reflect.DeepEqual(got.partial, c.partial) || got.opts != nil || got.operands != nil {
			t.Errorf("%s: %q: got %+v, want stderr %q status %d partial %q", c.name, c.argv, got, c.stderr+try, c.status, c.partial)
		}
	}
}

func TestUnmodelledOptions(t *testing.T) {
	s := Spec{Short: "ax", Long: map[string]string{"all": "a", "reference=": "ref"}, Status: 2,
		Partial: map[string]bool{"x": true, "ref": true}}
	for _, c := range []struct{ argv, stderr, partial string }{
		{"-a -x", "cmd: option '-x' is not supported in ShellSim\n", "cmd -x"},
		{"--ref=f", "cmd: option '--ref' is not supported in ShellSim\n", "cmd --ref"},
	} {
		got := parse(s, c.argv)
		if got.ok || got.status != 2 || got.stderr != c.stderr || !reflect.DeepEqual(got.partial, []string{c.partial}) {
			t.Errorf("%q: got %+v", c.argv, got)
		}
	}
	// A usage error comes first: the command line is not parsed further.
	if got := parse(s, "-x -z"); got.stderr != "cmd: invalid option -- 'z'\nTry 'cmd --help' for more information.\n" {
		t.Errorf("-x -z: got %+v", got)
	}
}

func TestHelpAndVersion(t *testing.T) {
	Describe("cmd", Tool{Synopsis: "cmd [-av] [-b N] FILE...", Package: "GNU testutils", Version: "1.2"})
	defer delete(tools, "cmd")
	s := Spec{Short: "ab:v", Long: map[string]string{"all": "a", "bytes=": "b", "ref=": "ref"}, Partial: map[string]bool{"v": true, "ref": true}, Help: true}
	help := "Usage: cmd [-av] [-b N] FILE...\nOptions modelled by ShellSim: -a -b --all --bytes=\n"
	version := "cmd (GNU testutils) 1.2\nShellSim reimplementation; the output follows the GNU tool's.\n"
	noperm := s
	noperm.NoPerm = true
	own := s
	own.Long = map[string]string{"help": "h", "version": "V"}
	for _, c := range []struct {
		name   string
		spec   Spec
		argv   string
		stdout string // "" means Parse parsed the command line
	}{
		{"help", s, "--help", help},
		{"version", s, "--version", version},
		{"help wins over a later usage error", s, "x --help -z", help},
		{"help after an option", s, "-a --help", help},
		{"first one wins", s, "--version --help", version},
		{"operand after double dash", s, "-- --help", ""},
		{"noperm: operand after the first operand", noperm, "x --help", ""},
		{"the command's own --help", own, "--help", ""},
	} {
		got := parse(c.spec, c.argv)
		if c.stdout == "" {
			if !got.ok || got.stdout != "" {
				t.Errorf("%s: %q: got %+v, want a parse", c.name, c.argv, got)
			}
			continue
		}
		if got.ok || got.status != 0 || got.stdout != c.stdout || got.stderr != "" {
			t.Errorf("%s: %q: got %+v, want stdout %q", c.name, c.argv, got, c.stdout)
		}
	}
	// An undescribed command gets GNU coreutils' defaults.
	var out bytes.Buffer
	inv := &command.Invocation{Args: []string{"other"}, Stdout: &out, Sys: &gaps{}}
	if st := HelpOrVersion(inv, &Spec{}, "--version"); st != 0 || out.String() != "other (GNU coreutils) 9.1\nShellSim reimplementation; the output follows the GNU tool's.\n" {
		t.Errorf("undescribed --version: %d %q", st, out.String())
	}
}

func TestDiagnostics(t *testing.T) {
	var stderr bytes.Buffer
	inv := &command.Invocation{Args: []string{"cmd"}, Stderr: &stderr}
	UsageError(inv, "missing operand")
	Errorf(inv, "cannot stat %s: %s", Quote("a'b"), "No such file or directory")
	want := "cmd: missing operand\nTry 'cmd --help' for more information.\n" +
		"cmd: cannot stat \"a'b\": No such file or directory\n"
	if stderr.String() != want || Quote("x") != "'x'" {
		t.Errorf("got %q", stderr.String())
	}
}
