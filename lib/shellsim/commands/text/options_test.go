package text

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// optionTables are the option tables of the commands in this package.
var optionTables = map[string]*getopt.Spec{
	"cat": &catSpec, "column": &columnSpec, "comm": &commSpec, "cut": &cutSpec, "expand": &expandSpec,
	"fmt": &fmtSpec, "fold": &foldSpec, "grep": &grepSpec, "head": &headSpec, "join": &joinSpec,
	"nl": &nlSpec, "paste": &pasteSpec, "rev": &revSpec, "seq": &seqSpec, "sort": &sortSpec,
	"split": &splitSpec, "tac": &tacSpec, "tail": &tailSpec, "tee": &teeSpec, "tr": &trSpec,
	"uniq": &uniqSpec, "wc": &wcSpec, "yes": &yesSpec,
}

// Each table is in the GNU tool's table order (GNUOrder), which ambiguity
// messages follow, lists every name once (an optional-argument option's
// two entries side by side, with one key), --help and --version included.
func TestOptionTables(t *testing.T) {
	for name, s := range optionTables {
		if !s.GNUOrder {
			t.Errorf("%s: GNUOrder is not set", name)
		}
		var names []string
		for i, l := range s.Long {
			if slices.Contains(s.Long[:i], l) {
				t.Errorf("%s: %q is listed twice", name, l)
			}
			n := strings.TrimSuffix(l[0], "=")
			if i > 0 && n == strings.TrimSuffix(s.Long[i-1][0], "=") {
				if l[1] != s.Long[i-1][1] {
					t.Errorf("%s: %q and %q differ in key", name, s.Long[i-1], l)
				}
				continue
			}
			if slices.Contains(names, n) {
				t.Errorf("%s: --%s is listed in two places", name, n)
			}
			names = append(names, n)
		}
		if !slices.Contains(names, "help") || !slices.Contains(names, "version") {
			t.Errorf("%s: --help and --version are missing from Long", name)
		}
	}
}

// The shared parser's glibc behaviour as the text commands show it; the
// expected outputs are GNU coreutils 9.1's, grep 3.8's and util-linux
// 2.38's (glibc 2.36), except that ShellSim's --help and --version print
// only their first lines.
func TestGNUOptionParsing(t *testing.T) {
	try := func(cmd string) string { return "Try '" + cmd + " --help' for more information.\n" }
	partial := func(feature string) func(t *testing.T, e *commandtest.Env) {
		return func(t *testing.T, e *commandtest.Env) {
			if !reflect.DeepEqual(e.Sys.Partials, []string{feature}) {
				t.Errorf("partials %q, want %q", e.Sys.Partials, feature)
			}
		}
	}
	runTable(t, []commandtest.
		// Ambiguous abbreviations: the word as typed, then GNU's table order,
		// leaving out later aliases of the first match.
		Golden{

		{Args: sh("sort --s=5"), Status: 2, Stderr: "sort: option '--s=5' is ambiguous; possibilities: '--sort' '--stable'\n" + try("sort")},
		{Args: sh("cat --s"), Status: 1, Stderr: "cat: option '--s' is ambiguous; possibilities: '--squeeze-blank' '--show-nonprinting' '--show-ends' '--show-tabs' '--show-all'\n" + try("cat")},
		{Args: sh("nl --n=x"), Status: 1, Stderr: "nl: option '--n=x' is ambiguous; possibilities: '--no-renumber' '--number-separator' '--number-width' '--number-format'\n" + try("nl")},
		{Args: sh("grep --co x"), Status: 2, Stderr: "grep: option '--co' is ambiguous; possibilities: '--context' '--color' '--colour' '--count'\nUsage: grep [OPTION]... PATTERNS [FILE]...\n" + try("grep")},
		{Args: sh("tail --s 1"), Status: 1, Stderr: "tail: option '--s' is ambiguous; possibilities: '--silent' '--sleep-interval'\n" + try("tail")},
		// --help and --version are in the tables, so they take part.
		{Args: sh("head --v"), Status: 1, Stderr: "head: option '--v' is ambiguous; possibilities: '--verbose' '--version'\n" + try("head")},
		{Args: sh("split --h"), Status: 1, Stderr: "split: option '--h' is ambiguous; possibilities: '--hex-suffixes' '--help'\n" + try("split")},
		{Args: sh("cat --vers"), Stdout: "cat (GNU coreutils) 9.1\n"},
		{Args: sh("rev --ve"), Stdout: "rev from util-linux 2.38.1\n"},
		{Args: sh("tac --version=1"), Status: 1, Stderr: "tac: option '--version' doesn't allow an argument\n" + try("tac")},
		// An unknown option is quoted whole and recorded as a gap.
		{Args: sh("sort --foo=bar"), Status: 2, Stderr: "sort: unrecognized option '--foo=bar'\n" + try("sort"), Check: partial("sort --foo")},
		{Args: sh("wc -Q"), Status: 1, Stderr: "wc: invalid option -- 'Q'\n" + try("wc"), Check: partial("wc -Q")},
		// --help is acted on in command-line order, as getopt loops do.
		{Args: sh("sort -Q --help"), Status: 2, Stderr: "sort: invalid option -- 'Q'\n" + try("sort"), Check: partial("sort -Q")},
		{Args: sh("head --help -Q"), Stdout: "Usage: head [OPTION]... [FILE]...\n\n(ShellSim prints only the usage line; the options are GNU's.)\n"},
		{Args: sh("cut -d --help"), Status: 1, Stderr: "cut: the delimiter must be a single character\n" + try("cut")},
		// seq reads negative numbers as operands, which end its options.
		{Args: sh("seq -5 --help"), Status: 1, Stderr: "seq: invalid floating point argument: '--help'\n" + try("seq")},
		{Args: sh("seq -w -1 1"), Stdout: "-1\n00\n01\n"},
		{Args: sh("seq -s -5 1 3"), Stdout: "1-52-53\n"},
		// An abbreviated optional-argument option takes "=value".
		{Args: sh("grep --col=always b"), Stdin: "abc\n", Stdout: "a\x1b[01;31m\x1b[Kb\x1b[m\x1b[Kc\n"},
		{Args: sh("tail --fo=x"), Status: 1, Stderr: "tail: invalid argument 'x' for '--follow'\nValid arguments are:\n  - 'descriptor'\n  - 'name'\n" + try("tail")},
	})
}
