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
	runTable(t, []tc{
		// Ambiguous abbreviations: the word as typed, then GNU's table order,
		// leaving out later aliases of the first match.
		{args: sh("sort --s=5"), status: 2, err: "sort: option '--s=5' is ambiguous; possibilities: '--sort' '--stable'\n" + try("sort")},
		{args: sh("cat --s"), status: 1, err: "cat: option '--s' is ambiguous; possibilities: '--squeeze-blank' '--show-nonprinting' '--show-ends' '--show-tabs' '--show-all'\n" + try("cat")},
		{args: sh("nl --n=x"), status: 1, err: "nl: option '--n=x' is ambiguous; possibilities: '--no-renumber' '--number-separator' '--number-width' '--number-format'\n" + try("nl")},
		{args: sh("grep --co x"), status: 2, err: "grep: option '--co' is ambiguous; possibilities: '--context' '--color' '--colour' '--count'\nUsage: grep [OPTION]... PATTERNS [FILE]...\n" + try("grep")},
		{args: sh("tail --s 1"), status: 1, err: "tail: option '--s' is ambiguous; possibilities: '--silent' '--sleep-interval'\n" + try("tail")},
		// --help and --version are in the tables, so they take part.
		{args: sh("head --v"), status: 1, err: "head: option '--v' is ambiguous; possibilities: '--verbose' '--version'\n" + try("head")},
		{args: sh("split --h"), status: 1, err: "split: option '--h' is ambiguous; possibilities: '--hex-suffixes' '--help'\n" + try("split")},
		{args: sh("cat --vers"), out: "cat (GNU coreutils) 9.1\n"},
		{args: sh("rev --ve"), out: "rev from util-linux 2.38.1\n"},
		{args: sh("tac --version=1"), status: 1, err: "tac: option '--version' doesn't allow an argument\n" + try("tac")},
		// An unknown option is quoted whole and recorded as a gap.
		{args: sh("sort --foo=bar"), status: 2, err: "sort: unrecognized option '--foo=bar'\n" + try("sort"), check: partial("sort --foo")},
		{args: sh("wc -Q"), status: 1, err: "wc: invalid option -- 'Q'\n" + try("wc"), check: partial("wc -Q")},
		// --help is acted on in command-line order, as getopt loops do.
		{args: sh("sort -Q --help"), status: 2, err: "sort: invalid option -- 'Q'\n" + try("sort"), check: partial("sort -Q")},
		{args: sh("head --help -Q"), out: "Usage: head [OPTION]... [FILE]...\n\n(ShellSim prints only the usage line; the options are GNU's.)\n"},
		{args: sh("cut -d --help"), status: 1, err: "cut: the delimiter must be a single character\n" + try("cut")},
		// seq reads negative numbers as operands, which end its options.
		{args: sh("seq -5 --help"), status: 1, err: "seq: invalid floating point argument: '--help'\n" + try("seq")},
		{args: sh("seq -w -1 1"), out: "-1\n00\n01\n"},
		{args: sh("seq -s -5 1 3"), out: "1-52-53\n"},
		// An abbreviated optional-argument option takes "=value".
		{args: sh("grep --col=always b"), stdin: "abc\n", out: "a\x1b[01;31m\x1b[Kb\x1b[m\x1b[Kc\n"},
		{args: sh("tail --fo=x"), status: 1, err: "tail: invalid argument 'x' for '--follow'\nValid arguments are:\n  - 'descriptor'\n  - 'name'\n" + try("tail")},
	})
}
