package sed

import (
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

const regexIn = "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"

// TestRegexDialect: GNU sed's reading of patterns (escapes, leading
// repetitions, brackets, word assertions, backreferences with POSIX
// leftmost-longest submatches, the I and M flags), as posixre's Sed
// flavour gives it. Goldens recorded from GNU sed 4.9 on Debian bookworm.
func TestRegexDialect(t *testing.T) {
	commandtest.Goldens{Commands: [][]command.Entry{Commands()}}.Run(t, []commandtest.Golden{
		{Name: "-E s/(a|ab)(c|bcd)\\2/[\\1,\\2]/", Args: []string{"sed", "-E", "s/(a|ab)(c|bcd)\\2/[\\1,\\2]/"}, Stdin: regexIn, Stdout: "[a,bcd] aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/\\(a\\|ab\\)\\(c\\|bcd\\)\\2/[\\1,\\2]/", Args: []string{"sed", "s/\\(a\\|ab\\)\\(c\\|bcd\\)\\2/[\\1,\\2]/"}, Stdin: regexIn, Stdout: "[a,bcd] aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "-E s/*b/X/", Args: []string{"sed", "-E", "s/*b/X/"}, Stdin: regexIn, Stdout: "", Stderr: "sed: -e expression #1, char 7: Invalid preceding regular expression\n", Status: 1},
		{Name: "-E s/^*b/X/", Args: []string{"sed", "-E", "s/^*b/X/"}, Stdin: regexIn, Stdout: "", Stderr: "sed: -e expression #1, char 8: Invalid preceding regular expression\n", Status: 1},
		{Name: "s/*y/X/", Args: []string{"sed", "s/*y/X/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\txX a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/^*/X/", Args: []string{"sed", "s/^*/X/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/\\{2\\}/X/", Args: []string{"sed", "s/\\{2\\}/X/"}, Stdin: regexIn, Stdout: "", Stderr: "sed: -e expression #1, char 10: Invalid preceding regular expression\n", Status: 1},
		{Name: "-E s/{2}b/X/", Args: []string{"sed", "-E", "s/{2}b/X/"}, Stdin: regexIn, Stdout: "", Stderr: "sed: -e expression #1, char 9: Invalid preceding regular expression\n", Status: 1},
		{Name: "-E s/a{2}b/X/", Args: []string{"sed", "-E", "s/a{2}b/X/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/\\+b/X/", Args: []string{"sed", "s/\\+b/X/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b X\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "-E s/a|+b/X/", Args: []string{"sed", "-E", "s/a|+b/X/"}, Stdin: regexIn, Stdout: "", Stderr: "sed: -e expression #1, char 9: Invalid preceding regular expression\n", Status: 1},
		{Name: "s/[\\t]/T/g", Args: []string{"sed", "s/[\\t]/T/g"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe catTx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/\\t/T/g", Args: []string{"sed", "s/\\t/T/g"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe catTx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/[\\n]/N/g", Args: []string{"sed", "s/[\\n]/N/g"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/\\cA/CTRL/", Args: []string{"sed", "s/\\cA/CTRL/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\nCTRLA\n"},
		{Name: "s/\\x41/hex/", Args: []string{"sed", "s/\\x41/hex/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01hex\n"},
		{Name: "s/\\o101/oct/", Args: []string{"sed", "s/\\o101/oct/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01oct\n"},
		{Name: "s/\\d065/dec/", Args: []string{"sed", "s/\\d065/dec/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01dec\n"},
		{Name: "s/\\<c/C/g", Args: []string{"sed", "s/\\<c/C/g"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe Cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/o\\>/O/g", Args: []string{"sed", "s/o\\>/O/g"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoO foO bar\nHELLO hellO\n\x01A\n"},
		{Name: "s/\\bfoo\\b/F/2", Args: []string{"sed", "s/\\bfoo\\b/F/2"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo F bar\nHELLO hello\n\x01A\n"},
		{Name: "s/\\(foo\\) \\1/dup/", Args: []string{"sed", "s/\\(foo\\) \\1/dup/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\ndup bar\nHELLO hello\n\x01A\n"},
		{Name: "-E s/(o+)\\1/<&>/g", Args: []string{"sed", "-E", "s/(o+)\\1/<&>/g"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nf<oo> f<oo> bar\nHELLO hello\n\x01A\n"},
		{Name: "s/hello/X/Ig", Args: []string{"sed", "s/hello/X/Ig"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nX X\n\x01A\n"},
		{Name: "N;N;s/^the/THE/Mg", Args: []string{"sed", "N;N;s/^the/THE/Mg"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nTHE cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "N;s/x$/X/M", Args: []string{"sed", "N;s/x$/X/M"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/[[:alpha:]]\\+/W/3", Args: []string{"sed", "s/[[:alpha:]]\\+/W/3"}, Stdin: regexIn, Stdout: "abcdbcd aa W\nthe cat\tW*y a{2}b +b\nfoo foo W\nHELLO hello\n\x01A\n"},
		{Name: "s/\\(a*\\)*/<\\1>/", Args: []string{"sed", "s/\\(a*\\)*/<\\1>/"}, Stdin: regexIn, Stdout: "<a>bcdbcd aa ab\n<>the cat\tx*y a{2}b +b\n<>foo foo bar\n<>HELLO hello\n<>\x01A\n"},
		{Name: "-E s/(a|b)*c/[\\1]/", Args: []string{"sed", "-E", "s/(a|b)*c/[\\1]/"}, Stdin: regexIn, Stdout: "[b]dbcd aa ab\nthe []at\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "-E s/()x/y/", Args: []string{"sed", "-E", "s/()x/y/"}, Stdin: regexIn, Stdout: "abcdbcd aa ab\nthe cat\ty*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/a\\|b\\|/X/g", Args: []string{"sed", "s/a\\|b\\|/X/g"}, Stdin: regexIn, Stdout: "XXcXdXcXdX XX XX\nXtXhXeX XcXtX\tXxX*XyX X{X2X}X X+X\nXfXoXoX XfXoXoX XXrX\nXHXEXLXLXOX XhXeXlXlXoX\nX\x01XAX\n"},
		{Name: "-E s/a)/X/", Args: []string{"sed", "-E", "s/a)/X/"}, Stdin: regexIn, Stdout: "", Stderr: "sed: -e expression #1, char 7: Unmatched ) or \\)\n", Status: 1},
		{Name: "s/\\`a/Z/", Args: []string{"sed", "s/\\`a/Z/"}, Stdin: regexIn, Stdout: "Zbcdbcd aa ab\nthe cat\tx*y a{2}b +b\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "s/b\\'/Z/", Args: []string{"sed", "s/b\\'/Z/"}, Stdin: regexIn, Stdout: "abcdbcd aa aZ\nthe cat\tx*y a{2}b +Z\nfoo foo bar\nHELLO hello\n\x01A\n"},
		{Name: "-E s/\\w+$/W/", Args: []string{"sed", "-E", "s/\\w+$/W/"}, Stdin: regexIn, Stdout: "abcdbcd aa W\nthe cat\tx*y a{2}b +W\nfoo foo W\nHELLO W\n\x01W\n"},
		{Name: "s/\\s/_/g", Args: []string{"sed", "s/\\s/_/g"}, Stdin: regexIn, Stdout: "abcdbcd_aa_ab\nthe_cat_x*y_a{2}b_+b\nfoo_foo_bar\nHELLO_hello\n\x01A\n"},
		{Name: "s/[a-c]\\{2,\\}/R/", Args: []string{"sed", "s/[a-c]\\{2,\\}/R/"}, Stdin: regexIn, Stdout: "Rdbcd aa ab\nthe Rt\tx*y a{2}b +b\nfoo foo Rr\nHELLO hello\n\x01A\n"},
		{Name: "s/.*/\\U&/", Args: []string{"sed", "s/.*/\\U&/"}, Stdin: regexIn, Stdout: "ABCDBCD AA AB\nTHE CAT\tX*Y A{2}B +B\nFOO FOO BAR\nHELLO HELLO\n\x01A\n"},
	})
}

// A pattern whose backtracking is exponential costs fuel (sed stops when
// it runs out) and is cut at posixre's step bound when fuel is unlimited.
func TestHostilePattern(t *testing.T) {
	line := strings.Repeat("a", 60) + "c\n"
	e := commandtest.New(t, Commands())
	e.Sys.Fuel = 2_000_000
	out, _, st := e.Run([]string{"sed", "-n", `/\(a*\)*b\1/p`}, strings.Repeat(line, 50))
	if out != "" || st == 0 || e.Sys.Fuel > 1000 {
		t.Errorf("with fuel: out %q status %d fuel left %d", out, st, e.Sys.Fuel)
	}
	e = commandtest.New(t, Commands())
	_, errs, st := e.Run([]string{"sed", `s/\(a*\)*b\1/x/`}, line)
	if st != 4 || errs != "sed: regular expression too complex to match\n" {
		t.Errorf("unmetered: status %d stderr %q", st, errs)
	}
}
