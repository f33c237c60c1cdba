package getopt

import (
	"bytes"
	"reflect"
	"strconv"
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
	Long: []Long{
		{"all", "a"}, {"brief", "q"}, {"bytes=", "b"}, {"color", "color"}, {"color=", "color"},
		{"context=", "context"}, {"decode", "decode"}, {"decompress", "decode"}, {"tag", "tag"}, {"verbose", "v"},
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

// show renders opts compactly for the tables: "name" for an option without
// an argument, "name=val" for one with (HasVal), "@w" after its Word when
// words are wanted.
func show(opts []Opt, words bool) string {
	var b []string
	for _, o := range opts {
		w := o.Name
		if o.HasVal {
			w += "=" + o.Val
		} else if o.Val != "" {
			w += "!" + o.Val // a value without HasVal is a bug
		}
		if words {
			w += "@" + strconv.Itoa(o.Word)
		}
		b = append(b, w)
	}
	return strings.Join(b, " ")
}

func TestParse(t *testing.T) {
	noperm := spec
	noperm.NoPerm = true
	for _, c := range []struct {
		name     string
		spec     Spec
		argv     string
		opts     string // as show renders them
		operands []string
	}{
		{"nothing", spec, "", "", nil},
		{"operands only", spec, "x y", "", []string{"x", "y"}},
		{"permutation", spec, "x -a y --verbose z", "a v", []string{"x", "y", "z"}},
		{"bundle", spec, "-av", "a v", nil},
		{"bundle ends in argument", spec, "-ab5 x", "a b=5", []string{"x"}},
		{"bundle argument in next word", spec, "-ab 5 x", "a b=5", []string{"x"}},
		{"argument swallows the rest", spec, "-bav", "b=av", nil},
		{"argument may look like an option", spec, "-b -a", "b=-a", nil},
		{"optional short argument attached", spec, "-c5", "c=5", nil},
		{"optional short argument absent", spec, "-c 5", "c", []string{"5"}},
		{"optional short argument after bundle", spec, "-ac5", "a c=5", nil},
		{"double dash ends options", spec, "-a -- -v --all", "a", []string{"-v", "--all"}},
		{"double dash alone", spec, "--", "", nil},
		{"only the first double dash counts", spec, "-- --", "", []string{"--"}},
		{"dash is an operand", spec, "- -a", "a", []string{"-"}},
		{"long", spec, "--all --verbose", "a v", nil},
		{"long argument with =", spec, "--bytes=5", "b=5", nil},
		{"long argument in next word", spec, "--bytes 5 x", "b=5", []string{"x"}},
		{"long empty argument", spec, "--bytes=", "b=", nil},
		{"long argument holding =", spec, "--bytes=a=b", "b=a=b", nil},
		{"long argument may look like an option", spec, "--bytes --all", "b=--all", nil},
		{"unique prefix", spec, "--al --by=3 --v", "a b=3 v", nil},
		{"prefix with argument in next word", spec, "--byt 7", "b=7", nil},
		{"prefix of aliases of one option", spec, "--dec", "decode", nil},
		{"exact name wins over longer names", spec, "--color", "color", nil},
		{"optional long argument", spec, "--color=auto", "color=auto", nil},
		{"optional long argument empty", spec, "--color=", "color=", nil},
		{"optional long argument absent", spec, "--color auto", "color", []string{"auto"}},
		{"optional long argument after a prefix", spec, "--col=auto --col", "color=auto color", nil},
		{"long-only canonical name", spec, "--tag", "tag", nil},
		{"options keep their order and repeats", spec, "-b1 -a --bytes=2 -a", "b=1 a b=2 a", nil},
		{"noperm stops at the first operand", noperm, "-a x -v --all", "a", []string{"x", "-v", "--all"}},
		{"noperm stops at dash", noperm, "-a - -v", "a", []string{"-", "-v"}},
		{"noperm still takes option arguments", noperm, "-b x -v y", "b=x v", []string{"y"}},
		{"noperm double dash", noperm, "-- -a", "", []string{"-a"}},
	} {
		got := parse(c.spec, c.argv)
		if !got.ok || got.status != 0 || got.stderr != "" || got.partial != nil ||
			show(got.opts, false) != c.opts || !reflect.DeepEqual(got.operands, c.operands) {
			t.Errorf("%s: %q: got %+v, want opts %q operands %q", c.name, c.argv, got, c.opts, c.operands)
		}
	}
}

// Word tells which command-line word each option came from (counting from
// the first argument), as grep's and fmt's -NUM need.
func TestWords(t *testing.T) {
	s := Spec{Short: "0123456789ab:c::", Long: []Long{{"all", "a"}, {"bytes=", "b"}}}
	for _, c := range []struct{ argv, opts string }{
		{"-12", "1@0 2@0"},
		{"-1 -2", "1@0 2@1"},
		{"x -1a2 y -3", "1@1 a@1 2@1 3@3"},
		{"-b 5 -1", "b=5@0 1@2"},
		{"-1b5 -2", "1@0 b=5@0 2@1"},
		{"--bytes 5 --all -9", "b=5@0 a@2 9@3"},
		{"-c5 -c", "c=5@0 c@1"},
	} {
		got := parse(s, c.argv)
		if !got.ok || show(got.opts, true) != c.opts {
			t.Errorf("%q: got %q (%+v), want %q", c.argv, show(got.opts, true), got, c.opts)
		}
	}
}

// NegNumbers reads "-5" and "-.5" as operands, as GNU seq does; with NoPerm
// (seq's "+f:s:w") the first one ends the options.
func TestNegNumbers(t *testing.T) {
	seq := Spec{Short: "f:s:w", Long: []Long{{"equal-width", "w"}, {"format=", "f"}, {"separator=", "s"}},
		NoPerm: true, NegNumbers: true}
	perm := seq
	perm.NoPerm = false
	for _, c := range []struct {
		name     string
		spec     Spec
		argv     string
		opts     string
		operands []string
	}{
		{"negative number", seq, "-5", "", []string{"-5"}},
		{"negative fraction", seq, "-.5 1", "", []string{"-.5", "1"}},
		{"ends the options", seq, "-w -1 -w 3", "w", []string{"-1", "-w", "3"}},
		{"after an operand", seq, "1 -1", "", []string{"1", "-1"}},
		{"exponent", seq, "-1e3 -s x", "", []string{"-1e3", "-s", "x"}},
		{"option argument stays the argument", seq, "-s -5 1 3", "s=-5", []string{"1", "3"}},
		{"long argument stays the argument", seq, "--separator -5 1", "s=-5", []string{"1"}},
		{"dash", seq, "- -w", "", []string{"-", "-w"}},
		{"double dash is still the end", seq, "-- -w", "", []string{"-w"}},
		{"permuting", perm, "-1 -w -.5 x", "w", []string{"-1", "-.5", "x"}},
	} {
		got := parse(c.spec, c.argv)
		if !got.ok || got.stderr != "" || show(got.opts, false) != c.opts || !reflect.DeepEqual(got.operands, c.operands) {
			t.Errorf("%s: %q: got %+v, want opts %q operands %q", c.name, c.argv, got, c.opts, c.operands)
		}
	}
	// Only a word starting "-DIGIT" or "-." is a number: in "-w5" the 5 is
	// an option letter.
	if got := parse(seq, "-w5"); got.ok || got.stderr != "cmd: invalid option -- '5'\nTry 'cmd --help' for more information.\n" {
		t.Errorf("-w5: got %+v", got)
	}
	// With Help, a negative number ends the search for --help under NoPerm.
	help := seq
	help.Help = true
	if got := parse(help, "-5 --help"); !got.ok || !reflect.DeepEqual(got.operands, []string{"-5", "--help"}) {
		t.Errorf("-5 --help: got %+v", got)
	}
	for _, c := range []struct {
		spec *Spec
		arg  string
		want bool
	}{
		{&seq, "-", true}, {&seq, "x", true}, {&seq, "", true}, {&seq, "-5", true}, {&seq, "-.5", true}, {&seq, "-9x", true},
		{&seq, "--", false}, {&seq, "--5", false}, {&seq, "-w", false}, {&seq, "-x5", false},
		{&spec, "-", true}, {&spec, "x", true}, {&spec, "-5", false}, {&spec, "-.5", false},
	} {
		if got := c.spec.isOperand(c.arg); got != c.want {
			t.Errorf("isOperand(%q) with NegNumbers %v = %v", c.arg, c.spec.NegNumbers, got)
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
		{"a negative number is options without NegNumbers", spec, "-5", "cmd: invalid option -- '5'\n", 1, []string{"cmd -5"}},
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
	s := Spec{Short: "ax", Long: []Long{{"all", "a"}, {"reference=", "ref"}}, Status: 2,
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
	s := Spec{Short: "ab:v", Long: []Long{{"all", "a"}, {"bytes=", "b"}, {"ref=", "ref"}}, Partial: map[string]bool{"v": true, "ref": true}, Help: true}
	help := "Usage: cmd [-av] [-b N] FILE...\nOptions modelled by ShellSim: -a -b --all --bytes=\n"
	version := "cmd (GNU testutils) 1.2\nShellSim reimplementation; the output follows the GNU tool's.\n"
	noperm := s
	noperm.NoPerm = true
	own := s
	own.Long = []Long{{"help", "h"}, {"version", "V"}}
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

// With GNUOrder, ambiguity is reported as glibc reports it for a table in
// Long's order: the word as typed, the first match, then each later match
// that is not an alias of the first. The expected lines are grep 3.8's and
// sort 9.1's (glibc 2.36) for the same options.
func TestOrder(t *testing.T) {
	grep := Spec{
		Short: "",
		Long: []Long{
			{"fixed-regexp", "F"}, {"fixed-strings", "F"}, {"context=", "C"}, {"color", "color"}, {"color=", "color"},
			{"colour", "color"}, {"colour=", "color"}, {"count", "c"}, {"file=", "f"}, {"files-with-matches", "l"},
			{"files-without-match", "L"}, {"zz-last", "zz"}, {"zz-also", "za"},
		},
		GNUOrder: true,
	}
	sort := Spec{Long: []Long{{"sort=", "sort"}, {"stable", "s"}}, GNUOrder: true}
	// Without GNUOrder the same table gives ShellSim's sorted list.
	sorted := grep
	sorted.GNUOrder = false
	try := "Try 'cmd --help' for more information.\n"
	for _, c := range []struct {
		spec         Spec
		argv, stderr string
	}{
		{grep, "--f", "cmd: option '--f' is ambiguous; possibilities: '--fixed-regexp' '--file' '--files-with-matches' '--files-without-match'\n"},
		{grep, "--fi=x", "cmd: option '--fi=x' is ambiguous; possibilities: '--fixed-regexp' '--file' '--files-with-matches' '--files-without-match'\n"},
		{grep, "--files-with", "cmd: option '--files-with' is ambiguous; possibilities: '--files-with-matches' '--files-without-match'\n"},
		{grep, "--co", "cmd: option '--co' is ambiguous; possibilities: '--context' '--color' '--colour' '--count'\n"},
		{grep, "--", ""}, // "--" ends the options: no error
		{grep, "--=x", "cmd: option '--=x' is ambiguous; possibilities: '--fixed-regexp' '--context' '--color' '--colour' '--count' '--file' '--files-with-matches' '--files-without-match' '--zz-last' '--zz-also'\n"},
		{grep, "--zz", "cmd: option '--zz' is ambiguous; possibilities: '--zz-last' '--zz-also'\n"},
		{sort, "--s=5", "cmd: option '--s=5' is ambiguous; possibilities: '--sort' '--stable'\n"},
		{sort, "--sta=5", "cmd: option '--stable' doesn't allow an argument\n"},
		{sort, "--nope=5", "cmd: unrecognized option '--nope=5'\n"},
		{sorted, "--f", "cmd: option '--f' is ambiguous; possibilities: '--file' '--files-with-matches' '--files-without-match' '--fixed-regexp' '--fixed-strings'\n"},
		{sorted, "--zz=x", "cmd: option '--zz' is ambiguous; possibilities: '--zz-also' '--zz-last'\n"},
	} {
		got := parse(c.spec, c.argv)
		if c.stderr == "" {
			if !got.ok {
				t.Errorf("%q: got %+v", c.argv, got)
			}
			continue
		}
		if got.ok || got.stderr != c.stderr+try {
			t.Errorf("%q: got %q, want %q", c.argv, got.stderr, c.stderr+try)
		}
	}
	for _, c := range []struct{ argv, opts string }{
		{"--fix", "F"}, // aliases of one option
		{"--col --colo=always", "color color=always"}, // color and colour are aliases
		{"--con 3 --cou", "C=3 c"},
		{"--color", "color"},
	} {
		if got := parse(grep, c.argv); !got.ok || show(got.opts, false) != c.opts {
			t.Errorf("%q: got %+v, want %q", c.argv, got, c.opts)
		}
	}
	// An abbreviation of aliases means the first of them in Long's order,
	// with or without GNUOrder: here whether it takes an argument.
	for _, c := range []struct {
		long         []Long
		argv, stderr string
	}{
		{[]Long{{"fast=", "f"}, {"fqdn", "f"}}, "--f", "cmd: option '--fast' requires an argument\n"},
		{[]Long{{"fqdn", "f"}, {"fast=", "f"}}, "--f=1", "cmd: option '--fqdn' doesn't allow an argument\n"},
	} {
		for _, gnu := range []bool{false, true} {
			if got := parse(Spec{Long: c.long, GNUOrder: gnu}, c.argv); got.ok || got.stderr != c.stderr+try {
				t.Errorf("%v GNUOrder %v: %q: got %+v, want %q", c.long, gnu, c.argv, got, c.stderr+try)
			}
		}
	}
}

// Scan parses like Parse but prints nothing and leaves --help, Partial
// options and mistakes to its caller, with the options before a mistake.
func TestScan(t *testing.T) {
	s := Spec{Short: "ab:x", Long: []Long{{"all", "a"}, {"brief", "q"}, {"bytes=", "b"}},
		Partial: map[string]bool{"x": true}, Help: true}
	for _, c := range []struct {
		argv     string
		opts     string
		operands []string
		err      *Error
	}{
		{"-x f --all", "x a", []string{"f"}, nil},
		{"--help", "", nil, &Error{"unrecognized option '--help'", "--help"}},
		{"-z", "", nil, &Error{"invalid option -- 'z'", "-z"}},
		{"--nope=1", "", nil, &Error{"unrecognized option '--nope=1'", "--nope"}},
		{"-b", "", nil, &Error{"option requires an argument -- 'b'", ""}},
		{"--b", "", nil, &Error{"option '--b' is ambiguous; possibilities: '--brief' '--bytes'", ""}},
		{"--all=1", "", nil, &Error{"option '--all' doesn't allow an argument", ""}},
		// The options before a mistake, as a getopt loop would have seen them.
		{"f -x --all -z --brief", "x a", nil, &Error{"invalid option -- 'z'", "-z"}},
		{"-ax --bytes", "a x", nil, &Error{"option '--bytes' requires an argument", ""}},
	} {
		opts, operands, err := s.Scan(strings.Fields(c.argv))
		if show(opts, false) != c.opts || !reflect.DeepEqual(operands, c.operands) || !reflect.DeepEqual(err, c.err) {
			t.Errorf("%q: got %q %q %+v, want %q %q %+v", c.argv, show(opts, false), operands, err, c.opts, c.operands, c.err)
		}
		if err != nil && err.Error() != err.Msg {
			t.Errorf("%q: Error() = %q", c.argv, err.Error())
		}
	}
}
